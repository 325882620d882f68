#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// Opens the file `app://<host>/<path>` names inside the app directory, refusing every way
/// out: `..` segments (plain or percent-encoded), encoded slashes, NUL bytes, and symlinks
/// that lead outside the directory. A directory serves its `index.html`.
///
/// Race-free: the path is walked one name at a time from a descriptor of the directory,
/// each name opened with `O_NOFOLLOW` relative to the folder opened before it, so that no
/// path is ever looked up twice. A symlink met on the way is read (`readlinkat`) and its
/// target walked the same way, from the folder it is in (`..` back through the folders
/// already open, never above the app directory; an absolute target only inside it). What
/// is served is the descriptor finally opened, checked with `fstat` to be a regular file:
/// a writer swapping a file for a symlink between the check and the read gains nothing.
public struct AppResourceResolver: Sendable {
    public enum Failure: Error, Equatable {
        /// 404: nothing there.
        case notFound
        /// 403: the path tries to leave the directory.
        case forbidden
    }

    /// An open regular file of the app directory: the caller owns (and closes) `descriptor`.
    public struct OpenFile: Sendable {
        public let descriptor: Int32
        public let size: Int
        /// The name of the file opened (a symlink's target's own name): its type.
        public let name: String
    }

    /// The directory, with symlinks resolved.
    public let root: URL

    /// Symlinks followed for one request, at most (as the kernel's own limit).
    static let symlinkLimit = 40

    public init(root: URL) {
        self.root = root.resolvingSymlinksInPath().standardizedFileURL
    }

    /// Opens the file a URL path names, as it appears in the request (still percent-encoded).
    public func open(encodedPath: String) -> Result<OpenFile, Failure> {
        var names: [String] = []
        for rawSegment in encodedPath.split(separator: "/", omittingEmptySubsequences: true) {
            guard let segment = String(rawSegment).percentDecoded,
                  segment != "..", segment != ".",
                  !segment.contains("/"), !segment.contains("\\"), !segment.contains("\0")
            else { return .failure(.forbidden) }
            names.append(segment)
        }
        let rootDescriptor = Glibc.open(root.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard rootDescriptor >= 0 else { return .failure(.notFound) }
        return walk(names[...], from: rootDescriptor)
    }

    /// Walks `names` from the directory open at `rootDescriptor` (which it closes).
    private func walk(_ names: ArraySlice<String>, from rootDescriptor: Int32) -> Result<OpenFile, Failure> {
        var remaining = names
        // The folders walked through, the app directory first; each owned here.
        var folders = [rootDescriptor]
        defer { for folder in folders { close(folder) } }
        var symlinks = 0
        var name = "index.html"
        while true {
            guard let next = remaining.popFirst() else {
                // Walked to a folder: its index.
                remaining = ["index.html"]
                continue
            }
            if next == "." || next.isEmpty { continue }
            if next == ".." {
                guard folders.count > 1 else { return .failure(.forbidden) }
                close(folders.removeLast())
                continue
            }
            name = next
            // Without waiting (a FIFO would block the main loop) and without following a link.
            let descriptor = openat(folders.last!, next, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
            guard descriptor >= 0 else {
                guard errno == ELOOP else { return .failure(errno == EACCES ? .forbidden : .notFound) }
                symlinks += 1
                guard symlinks <= Self.symlinkLimit, let target = Self.readLink(next, in: folders.last!) else {
                    return .failure(.forbidden)
                }
                if target.hasPrefix("/") {
                    // Absolute: only a target inside the app directory, walked from it.
                    guard target == root.path || target.hasPrefix(root.path + "/") else { return .failure(.forbidden) }
                    for folder in folders.dropFirst() { close(folder) }
                    folders.removeLast(folders.count - 1)
                    remaining = Self.names(of: String(target.dropFirst(root.path.count))) + remaining
                } else {
                    remaining = Self.names(of: target) + remaining
                }
                continue
            }
            guard let identity = FileIdentity(descriptor: descriptor) else {
                close(descriptor)
                return .failure(.notFound)
            }
            if identity.isDirectory {
                folders.append(descriptor)
                continue
            }
            guard identity.isRegularFile, remaining.isEmpty else {
                close(descriptor)
                return .failure(.notFound)
            }
            // Served blocking, as any regular file.
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
            return .success(OpenFile(descriptor: descriptor, size: identity.size, name: name))
        }
    }

    private static func names(of target: String) -> ArraySlice<String> {
        target.split(separator: "/", omittingEmptySubsequences: true).map(String.init)[...]
    }

    /// The target of the symlink `name` in `folder`; nil if it is none (any more).
    private static func readLink(_ name: String, in folder: Int32) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlinkat(folder, name, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
