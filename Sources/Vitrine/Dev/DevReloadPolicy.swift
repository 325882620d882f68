#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Which file events reload the page: contents written, files added, removed or renamed.
/// Not an attribute change (a read can update the access time) nor an editor's scratch file.
public enum DevReloadPolicy {
    public static func reloads(_ event: WatchedFileEvent, path: String) -> Bool {
        switch event {
        case .changed, .changesDone, .created, .deleted, .renamed, .movedIn, .movedOut:
            return !isScratchFile(path)
        case .attributeChanged, .other:
            return false
        }
    }

    /// Vim's swap files and its `4913` probe, Emacs' lock and backup files, `~` backups.
    static func isScratchFile(_ path: String) -> Bool {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        return name.hasSuffix(".swp") || name.hasSuffix(".swx") || name.hasSuffix("~") || name.hasPrefix(".#") || name == "4913"
    }
}
