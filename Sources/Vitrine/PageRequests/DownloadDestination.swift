#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where a download is written: the server's suggested name reduced to a plain file name
/// (no folders, never `.` or `..`), numbered so that no existing file is overwritten.
public enum DownloadDestination {
    /// A path in `directory` for which `exists` is false.
    public static func path(in directory: URL, suggested: String, exists: (String) -> Bool = {
        FileSystem.isRegularFile($0) || FileSystem.isDirectory($0)
    }) -> String {
        let base = suggested.split(separator: "/").last.map(String.init) ?? ""
        let name = base.isEmpty || base == "." || base == ".." ? "download" : base
        var candidate = directory.appendingPathComponent(name).path
        var counter = 1
        while exists(candidate) {
            counter += 1
            candidate = directory.appendingPathComponent("\(counter)-\(name)").path
        }
        return candidate
    }
}
