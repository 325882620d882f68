#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

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
            guard let segment = String(rawSegment).percentDecoded,
                  segment != "..", segment != ".",
                  !segment.contains("/"), !segment.contains("\\"), !segment.contains("\0")
            else { return .failure(.forbidden) }
            file.appendPathComponent(segment)
        }
        if FileSystem.isDirectory(file.path) {
            file.appendPathComponent("index.html")
        }
        // Symlinks may point anywhere: judge where the file really is.
        let real = file.resolvingSymlinksInPath().standardizedFileURL
        guard real.path == root.path || real.path.hasPrefix(root.path + "/") else { return .failure(.forbidden) }
        guard FileSystem.isRegularFile(real.path) else { return .failure(.notFound) }
        return .success(real)
    }
}
