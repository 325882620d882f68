#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

/// `[[zones]]`: the window split into rectangles, each with its own page or playlist.
extension ConfigOptions {
    static let zoneOptions: [ConfigOption] = [
        ConfigOption.tables("zones", required: ["name", "x", "y", "width", "height"],
                            "the window split into rectangles, each a view with its own url or [[zones.playlist]]",
                            check: { entry in
                                entry["url"] != nil && entry["playlist"] != nil ? "has both a url and a playlist; give one" : nil
                            }) { configurator, entries in
            configurator.preference(\.zones, entries.compactMap { entry in
                guard let name = entry["name"]?.string, let x = entry["x"]?.zoneLength, let y = entry["y"]?.zoneLength,
                      let width = entry["width"]?.zoneLength, let height = entry["height"]?.zoneLength else { return nil }
                return Zone(name: name, x: x, y: y, width: width, height: height, url: entry["url"]?.url,
                            playlist: playlist(entry["playlist"]?.entries ?? []), overlaps: entry["overlap"]?.bool ?? false)
            })
        }.summarized(as: "zones") { configuration, _ in
            configuration.zones.isEmpty ? nil : configuration.zones.map(\.name).joined(separator: ", ")
        }.printable { Printed.lines($0.zones.map(\.name)) },
        ConfigOption.field("zones.name", .nonEmptyText, "its name, unique in the window (in the events log)")
            .example(#""main""#).printable { Printed.lines($0.zones.map(\.name)) },
        ConfigOption.field("zones.x", .zoneLength, #"its left edge: pixels from the window's, or a percentage of its width such as "75%""#)
            .printable { Printed.lines($0.zones.map(\.x.description)) },
        ConfigOption.field("zones.y", .zoneLength, #"its top edge: pixels from the window's, or a percentage of its height"#)
            .printable { Printed.lines($0.zones.map(\.y.description)) },
        ConfigOption.field("zones.width", .zoneLength, "its width: pixels, or a percentage of the window's")
            .printable { Printed.lines($0.zones.map(\.width.description)) },
        ConfigOption.field("zones.height", .zoneLength, "its height: pixels, or a percentage of the window's")
            .printable { Printed.lines($0.zones.map(\.height.description)) },
        ConfigOption.field("zones.url", .url, "its page (default: its playlist's first, else the start page; it goes through the navigation chain)")
            .printable { Printed.lines($0.zones.map { Printed.url($0.url) }) },
        ConfigOption.field("zones.overlap", .bool, "it may overlap the zones declared before it, drawn above them (default: no)")
            .printable { Printed.lines($0.zones.map { Printed.bool($0.overlaps) }) },
        // Read by [[zones]]'s own apply, table by table.
        ConfigOption.tables("zones.playlist", required: ["url", "duration"], "this zone's own playlist, as [[schedule.playlist]]",
                check: itemWindowProblem) { configurator, _ in
            configurator
        }.printable { Printed.lines($0.zones.flatMap(\.playlist).map(\.url.absoluteString)) },
    ] + playlistEntryFields(of: "zones.playlist") { $0.zones.flatMap(\.playlist) }
}
