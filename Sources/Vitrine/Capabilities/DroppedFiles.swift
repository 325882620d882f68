#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// Files dragged from the desktop onto a window (`drop` capability): which of the dropped
/// URIs (`text/uri-list`) a page hears of. Only local regular files, named by `file:` URIs,
/// reached without a symbolic link: a link dropped (or a folder, a device, a FIFO, another
/// machine's file, an `http:` URL) is refused, so a drop cannot hand a page a file other
/// than the one the user saw.
public struct DroppedFiles: Sendable, Equatable {
    /// A file the page hears of: its path and size in bytes.
    public struct File: Sendable, Equatable {
        public var path: String
        public var size: Int

        public init(path: String, size: Int) {
            self.path = path
            self.size = size
        }
    }

    public private(set) var files: [File] = []
    /// The URIs refused, each with why.
    public private(set) var refused: [(uri: String, reason: String)] = []

    /// The most files one drop hands a page.
    public static let limit = 100

    public init(uriList text: String) {
        // RFC 2483: CRLF-separated, `#` lines are comments.
        let uris = text.split(whereSeparator: { $0 == "\r\n" || $0 == "\n" || $0 == "\r" })
            .map { line in String(line.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed()) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
        for uri in uris {
            if files.count >= Self.limit { refused.append((uri, "more than \(Self.limit) files in one drop")); continue }
            switch Self.file(uri) {
            case .success(let file): files.append(file)
            case .failure(let reason): refused.append((uri, reason.message))
            }
        }
    }

    public static func == (lhs: DroppedFiles, rhs: DroppedFiles) -> Bool {
        lhs.files == rhs.files && lhs.refused.map(\.uri) == rhs.refused.map(\.uri) && lhs.refused.map(\.reason) == rhs.refused.map(\.reason)
    }

    /// What the page's `files:dropped` listeners get: `{files: [{path, size}]}`.
    public var payload: JSONValue {
        ["files": .array(files.map { ["path": .string($0.path), "size": .number(Double($0.size))] })]
    }

    private static func file(_ uri: String) -> Result<File, ScriptMessageError> {
        guard let url = URL(string: uri), url.scheme?.lowercased() == "file" else {
            return .failure(ScriptMessageError("not a file: URI"))
        }
        guard url.host == nil || url.host == "" || url.host == "localhost" else {
            return .failure(ScriptMessageError("a file of another machine"))
        }
        let path = url.path
        guard path.hasPrefix("/"), !path.contains("\0") else { return .failure(ScriptMessageError("not an absolute path")) }
        if let link = firstSymbolicLink(in: path) { return .failure(ScriptMessageError("reached through the symbolic link \(link)")) }
        var info = stat()
        guard lstat(path, &info) == 0 else { return .failure(ScriptMessageError("no such file")) }
        guard info.st_mode & S_IFMT == S_IFREG else { return .failure(ScriptMessageError("not a regular file")) }
        return .success(File(path: path, size: Int(info.st_size)))
    }

    /// The first component of `path` (or `path` itself) that is a symbolic link.
    private static func firstSymbolicLink(in path: String) -> String? {
        var prefix = ""
        for component in path.split(separator: "/") {
            prefix += "/" + component
            var info = stat()
            guard lstat(prefix, &info) == 0 else { return nil }
            if info.st_mode & S_IFMT == S_IFLNK { return prefix }
        }
        return nil
    }
}
