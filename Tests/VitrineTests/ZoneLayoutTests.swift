import Foundation
import Testing
import Vitrine

/// `[[zones]]` as values: lengths read strictly, rectangles from the window's size (the
/// percentages of a tiled layout meet exactly), and every mistake named.
@Suite("Zones: lengths, layout, problems")
struct ZoneLayoutTests {
    static func zone(_ name: String, _ x: ZoneLength, _ y: ZoneLength, _ width: ZoneLength, _ height: ZoneLength,
                     overlaps: Bool = false) -> Zone {
        Zone(name: name, x: x, y: y, width: width, height: height, url: URL(string: "https://signage.example/\(name)"),
             overlaps: overlaps)
    }

    /// Main, side and ticker: the classic signage layout.
    static let classic = [
        zone("main", .pixels(0), .pixels(0), .percent(75), .percent(90)),
        zone("side", .percent(75), .pixels(0), .percent(25), .percent(90)),
        zone("ticker", .pixels(0), .percent(90), .percent(100), .percent(10)),
    ]

    @Test func lengthsAreReadStrictly() {
        #expect(ZoneLength("25%") == .percent(25))
        #expect(ZoneLength("33.5%") == .percent(33.5))
        #expect(ZoneLength("0%") == .percent(0) && ZoneLength("100%") == .percent(100))
        for bad in ["25", "%", "-5%", "101%", "25 %", " 25%", "nan%", "inf%", "1e3%", "25%%", ""] {
            #expect(ZoneLength(bad) == nil, "\(bad)")
        }
        #expect(ZoneLength(pixels: 0) == .pixels(0))
        #expect(ZoneLength(pixels: -1) == nil)
        #expect(ZoneLength.percent(25).description == "25%" && ZoneLength.pixels(300).description == "300")
    }

    @Test func percentagesTileAnOddSizedWindowExactly() {
        // 1366 x 768: 75 % is 1024.5 px, 25 % 341.5 px; the side zone still ends at 1366.
        let rectangles = ZoneLayout.rectangles(of: Self.classic, width: 1366, height: 768)
        #expect(rectangles == [
            ZoneRectangle(x: 0, y: 0, width: 1025, height: 691),
            ZoneRectangle(x: 1025, y: 0, width: 341, height: 691),
            ZoneRectangle(x: 0, y: 691, width: 1366, height: 77),
        ])
        #expect(ZoneLayout.messages(of: Self.classic, width: 1366, height: 768).isEmpty)
        // The same layout follows the window to another size.
        #expect(ZoneLayout.rectangles(of: Self.classic, width: 1920, height: 1080)[2] == ZoneRectangle(x: 0, y: 972, width: 1920, height: 108))
    }

    @Test func pixelZonesThatDoNotFitAreReportedAndClipped() {
        let zones = [Self.zone("left", .pixels(0), .pixels(0), .pixels(1000), .pixels(700)),
                     Self.zone("right", .pixels(1000), .pixels(0), .pixels(400), .pixels(700))]
        #expect(ZoneLayout.messages(of: zones, width: 1280, height: 720)
                == [#"zone "right": 400x700 at 1000,0 does not fit a 1280x720 window"#])
        #expect(ZoneLayout.rectangles(of: zones, width: 1280, height: 720)[1] == ZoneRectangle(x: 1000, y: 0, width: 280, height: 700))
        // Entirely outside: empty, not negative.
        let outside = [Self.zone("far", .pixels(2000), .pixels(0), .pixels(100), .pixels(100))]
        #expect(ZoneLayout.rectangles(of: outside, width: 1280, height: 720) == [ZoneRectangle(x: 1280, y: 0, width: 0, height: 100)])
    }

    @Test func overlapsNamesAndEmptyZonesAreProblems() {
        let zones = [
            Self.zone("main", .pixels(0), .pixels(0), .percent(100), .percent(100)),
            Self.zone("main", .pixels(0), .pixels(0), .pixels(10), .pixels(10)),
            Self.zone("badge", .percent(90), .percent(0), .percent(10), .percent(10), overlaps: true),
            Self.zone("flat", .pixels(0), .pixels(0), .pixels(100), .pixels(0)),
            Self.zone("", .pixels(0), .pixels(0), .pixels(1), .pixels(1), overlaps: true),
        ]
        #expect(ZoneLayout.messages(of: zones, width: 800, height: 600) == [
            #"zone "main": the name is taken by another zone"#,
            #"zone "main": overlaps zone "main" (set overlap = true to draw it above)"#,
            #"zone "flat": is empty (100x0 at 0,0)"#,
            "a zone needs a name",
        ])
        var both = Self.zone("both", .pixels(0), .pixels(0), .pixels(10), .pixels(10))
        both.playlist = [PlaylistEntry(url: URL(string: "https://signage.example/a")!, duration: .seconds(5))]
        #expect(ZoneLayout.messages(of: [both], width: 100, height: 100) == [#"zone "both": has both a url and a playlist; give one"#])
        // Touching edges are no overlap.
        #expect(ZoneLayout.messages(of: Self.classic, width: 800, height: 600).isEmpty)
    }
}
