#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where each zone goes in a window of a given size, and what is wrong with a set of zones.
///
/// The adapter asks again on every size change of the window; a zone that does not fit the
/// window as it is (a percentage layout always fits; pixels may not on a smaller screen)
/// is clipped to it, and an empty one is not shown.
public enum ZoneLayout {
    /// What is wrong with `zones` in a window of `width`×`height` (empty: nothing):
    /// duplicate or empty names, zones that are empty or outside the window, zones that
    /// overlap one declared before them without `overlap = true`, a zone with both a `url`
    /// and a playlist.
    public static func problems(of zones: [Zone], width: Int, height: Int) -> [ZoneProblem] {
        var problems: [ZoneProblem] = []
        var seen: Set<String> = []
        var placed: [(name: String, rectangle: ZoneRectangle)] = []
        for (index, zone) in zones.enumerated() {
            func problem(_ message: String) { problems.append(ZoneProblem(zone: index, message: message)) }
            if zone.name.isEmpty { problem("a zone needs a name") }
            if !seen.insert(zone.name).inserted { problem("zone \"\(zone.name)\": the name is taken by another zone") }
            if zone.url != nil, !zone.playlist.isEmpty {
                problem("zone \"\(zone.name)\": has both a url and a playlist; give one")
            }
            let rectangle = unclipped(zone, width: width, height: height)
            if rectangle.width <= 0 || rectangle.height <= 0 {
                problem("zone \"\(zone.name)\": is empty (\(rectangle))")
            } else if rectangle.x + rectangle.width > width || rectangle.y + rectangle.height > height {
                problem("zone \"\(zone.name)\": \(rectangle) does not fit a \(width)x\(height) window")
            }
            if !zone.overlaps, let other = placed.first(where: { $0.rectangle.overlaps(rectangle) }) {
                problem("zone \"\(zone.name)\": overlaps zone \"\(other.name)\" (set overlap = true to draw it above)")
            }
            placed.append((zone.name, rectangle))
        }
        return problems
    }

    /// Each zone's rectangle in a window of `width`×`height`, clipped to the window.
    public static func rectangles(of zones: [Zone], width: Int, height: Int) -> [ZoneRectangle] {
        zones.map { zone in
            let whole = unclipped(zone, width: width, height: height)
            let x = min(max(whole.x, 0), width), y = min(max(whole.y, 0), height)
            return ZoneRectangle(x: x, y: y, width: max(0, min(whole.x + whole.width, width) - x),
                                 height: max(0, min(whole.y + whole.height, height) - y))
        }
    }

    /// The zones' problems as text, in order.
    public static func messages(of zones: [Zone], width: Int, height: Int) -> [String] {
        problems(of: zones, width: width, height: height).map(\.message)
    }

    private static func unclipped(_ zone: Zone, width: Int, height: Int) -> ZoneRectangle {
        let x = zone.x.pixels(of: width), y = zone.y.pixels(of: height)
        return ZoneRectangle(x: x, y: y, width: zone.width.end(from: zone.x, along: width) - x,
                             height: zone.height.end(from: zone.y, along: height) - y)
    }
}

/// What is wrong with one zone (its index among the zones).
public struct ZoneProblem: Sendable, Equatable {
    public let zone: Int
    public let message: String
}
