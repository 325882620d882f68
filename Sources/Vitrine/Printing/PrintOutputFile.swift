#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// The rule for `output-uri`: a `file:` URI of a PDF in a folder that exists, reached
/// without symbolic links, and not itself a link or anything but a regular file. Checked
/// when the file is read and again before every job (a link planted later would otherwise
/// redirect the kiosk's writes).
public enum PrintOutputFile {
    /// Why `uri` cannot receive print jobs, or nil.
    public static func problem(_ uri: URL) -> String? {
        guard uri.scheme?.lowercased() == "file" else {
            return "must be a file:/// URI (printing to a file); for a printer use printer = \"QUEUE\""
        }
        guard uri.host == nil || uri.host == "" || uri.host == "localhost" else {
            return "must name a file on this machine (file:///PATH), not on '\(uri.host ?? "")'"
        }
        let path = uri.path
        guard path.hasPrefix("/"), !path.split(separator: "/").contains(where: { $0 == ".." || $0 == "." }) else {
            return "must be an absolute path without '.' or '..'"
        }
        guard path.lowercased().hasSuffix(".pdf") else { return "must name a .pdf file (jobs are written as PDF)" }
        let folder = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        guard FileSystem.isDirectory(folder.isEmpty ? "/" : folder) else {
            return "names a file in '\(folder)', which is not an existing folder"
        }
        if let link = firstSymbolicLink(in: path) {
            return "goes through the symbolic link '\(link)': name the real path"
        }
        var info = stat()
        if lstat(path, &info) == 0, info.st_mode & S_IFMT != S_IFREG {
            return "names '\(path)', which exists and is not a regular file"
        }
        return nil
    }

    /// The first component of `path` (or `path` itself) that is a symbolic link.
    private static func firstSymbolicLink(in path: String) -> String? {
        var prefix = ""
        for component in path.split(separator: "/") {
            prefix += "/" + component
            var info = stat()
            guard lstat(prefix, &info) == 0 else { return nil }  // the rest does not exist yet
            if info.st_mode & S_IFMT == S_IFLNK { return prefix }
        }
        return nil
    }
}
