#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What happened to a file in a folder `vitrine dev` watches (GLib's `GFileMonitorEvent`,
/// translated by the adapter).
public enum WatchedFileEvent: Sendable, Equatable {
    case changed, changesDone, created, deleted, renamed, movedIn, movedOut, attributeChanged, other
}

