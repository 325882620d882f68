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

/// How a `[[displays]]` table names its monitor: GDK's index (0-based) or its connector
/// (`"HDMI-1"`, the name GDK gives as the monitor's model on X11).
public enum MonitorSelector: Sendable, Hashable, CustomStringConvertible {
    case index(Int)
    case connector(String)

    /// An integer is an index (0 or more); a string without spaces a connector name.
    public init?(index: Int) {
        guard index >= 0 else { return nil }
        self = .index(index)
    }

    public init?(connector: String) {
        guard !connector.isEmpty, !connector.contains(where: \.isWhitespace) else { return nil }
        self = .connector(connector)
    }

    public static let expectation = #"a monitor index from 0 or a connector name such as "HDMI-1""#

    public func matches(_ monitor: Monitor) -> Bool {
        switch self {
        case .index(let index): monitor.index == index
        case .connector(let name): monitor.connector?.lowercased() == name.lowercased()
        }
    }

    public var description: String {
        switch self {
        case .index(let index): String(index)
        case .connector(let name): name
        }
    }
}

/// A monitor as the display system lists it now.
public struct Monitor: Sendable, Hashable {
    public var index: Int
    /// The connector (X11 RandR output name); nil where the system gives none.
    public var connector: String?
    public var x: Int, y: Int, width: Int, height: Int

    public init(index: Int, connector: String?, x: Int = 0, y: Int = 0, width: Int = 0, height: Int = 0) {
        self.index = index
        self.connector = connector
        self.x = x
        self.y = y
        self.width = width
        self.height = height
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
