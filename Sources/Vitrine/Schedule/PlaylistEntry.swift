#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One page of a playlist and how long it stays.
public struct PlaylistEntry: Sendable, Equatable {
    public var url: URL
    public var duration: Duration

    public init(url: URL, duration: Duration) {
        self.url = url
        self.duration = duration
    }
}
