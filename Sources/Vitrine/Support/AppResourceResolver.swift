import Foundation

/// Maps `app://<host>/<path>` to a file inside the app directory, refusing every way out:
/// `..` segments (plain or percent-encoded), encoded slashes, NUL bytes, and symlinks that
/// resolve outside the directory. A directory serves its `index.html`.
public struct AppResourceResolver: Sendable {
    public enum Failure: Error, Equatable {
        /// 404: nothing there.
        case notFound
        /// 403: the path tries to leave the directory.
        case forbidden
    }

    /// The directory, with symlinks resolved.
    public let root: URL

    public init(root: URL) {
        self.root = root.resolvingSymlinksInPath().standardizedFileURL
    }

    /// Resolves a URL path as it appears in the request (still percent-encoded).
    public func resolve(encodedPath: String) -> Result<URL, Failure> {
        var file = root
        for rawSegment in encodedPath.split(separator: "/", omittingEmptySubsequences: true) {
            guard let segment = String(rawSegment).removingPercentEncoding,
                  segment != "..", segment != ".",
                  !segment.contains("/"), !segment.contains("\\"), !segment.contains("\0")
            else { return .failure(.forbidden) }
            file.appendPathComponent(segment)
        }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: file.path, isDirectory: &isDirectory), isDirectory.boolValue {
            file.appendPathComponent("index.html")
        }
        // Symlinks may point anywhere: judge where the file really is.
        let real = file.resolvingSymlinksInPath().standardizedFileURL
        guard real.path == root.path || real.path.hasPrefix(root.path + "/") else { return .failure(.forbidden) }
        guard FileManager.default.fileExists(atPath: real.path, isDirectory: &isDirectory), !isDirectory.boolValue
        else { return .failure(.notFound) }
        return .success(real)
    }
}
