#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One page of a playlist, how long it stays, and when it may be shown.
public struct PlaylistEntry: Sendable, Equatable {
    /// The page, or the media file of a media item.
    public var url: URL
    public var duration: Duration
    /// Outside it the item is skipped (default: always in it).
    public var window: ItemWindow
    /// A media file shown full-screen (`video = "…"`); nil for a page.
    public var media: MediaPlayback?
    /// The offline-first bundle the page comes from (`bundle = "…"`); `url` is then its
    /// `app://bundle-<id>/<entry>`.
    public var bundle: BundleSource?

    public init(url: URL, duration: Duration, window: ItemWindow = .always, media: MediaPlayback? = nil, bundle: BundleSource? = nil) {
        self.url = url
        self.duration = duration
        self.window = window
        self.media = media
        self.bundle = bundle
    }
}

/// How a playlist's media item plays: WebKit shows the file full-screen (its own media
/// document, without controls); the item ends when the media does, unless it loops, and at
/// its `duration` at the latest.
public struct MediaPlayback: Sendable, Equatable {
    /// Start again at the end, until `duration` is over.
    public var loops: Bool

    public init(loops: Bool = false) {
        self.loops = loops
    }

    /// The longest a media item with no `duration` stays when its end is never reported (a
    /// live stream, a page that never plays): the playlist turns on after it regardless.
    public static let longestUnreported = Duration.seconds(6 * 3600)
}
