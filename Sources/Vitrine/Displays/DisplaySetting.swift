#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One `[[displays]]` table: the monitor it drives and the page that monitor shows.
public struct DisplaySetting: Sendable, Equatable {
    public var monitor: MonitorSelector
    /// Its own start page; nil: the configuration's.
    public var startURL: URL?
    /// Its own playlist (`[[displays.playlist]]`); empty: none of its own.
    public var playlist: [PlaylistEntry]

    public init(monitor: MonitorSelector, startURL: URL? = nil, playlist: [PlaylistEntry] = []) {
        self.monitor = monitor
        self.startURL = startURL
        self.playlist = playlist
    }
}

extension Configuration {
    /// The configuration of `display`'s window: this one with the display's start page and
    /// playlist. A display with a page or a playlist of its own runs its own playlist only
    /// (the file's would replace its page); reloads and the screen's hours hold for every
    /// window. The app's origins stay the whole configuration's, so each window's chain
    /// decides as the main one does.
    public func forDisplay(_ display: DisplaySetting) -> Configuration {
        guard display.startURL != nil || !display.playlist.isEmpty else { return self }
        var preferences = preferences
        preferences.schedule.playlist = display.playlist
        return refined(preferences: preferences, startURL: display.startURL ?? startURL, allowedOrigins: appOrigins)
    }
}
