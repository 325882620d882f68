#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One page of a playlist, how long it stays, and when it may be shown.
public struct PlaylistEntry: Sendable, Equatable {
    public var url: URL
    public var duration: Duration
    /// Outside it the item is skipped (default: always in it).
    public var window: ItemWindow

    public init(url: URL, duration: Duration, window: ItemWindow = .always) {
        self.url = url
        self.duration = duration
        self.window = window
    }
}
