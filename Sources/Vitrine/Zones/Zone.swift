#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One rectangle of a window split into zones (`[[zones]]`), showing its own page or its
/// own playlist under the window's chain, lockdown and recovery.
public struct Zone: Sendable, Equatable {
    public var name: String
    public var x: ZoneLength
    public var y: ZoneLength
    public var width: ZoneLength
    public var height: ZoneLength
    /// Its page (nil: its playlist's first, or the window's start page).
    public var url: URL?
    /// Pages in turn in this zone, as `[[schedule.playlist]]`.
    public var playlist: [PlaylistEntry]
    /// It may overlap zones declared before it (it is drawn above them).
    public var overlaps: Bool

    public init(name: String, x: ZoneLength, y: ZoneLength, width: ZoneLength, height: ZoneLength, url: URL? = nil,
                playlist: [PlaylistEntry] = [], overlaps: Bool = false) {
        self.name = name
        self.x = x
        self.y = y
        self.width = width
        self.height = height
        self.url = url
        self.playlist = playlist
        self.overlaps = overlaps
    }
}

/// A zone's place in a window of a given size, in pixels.
public struct ZoneRectangle: Sendable, Equatable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    func overlaps(_ other: ZoneRectangle) -> Bool {
        x < other.x + other.width && other.x < x + width && y < other.y + other.height && other.y < y + height
    }

    public var description: String { "\(width)x\(height) at \(x),\(y)" }
}
