import Foundation
import Testing
import Vitrine
import VitrineConfigFile

/// `[[zones]]` in a file: read into the configuration, and every mistake reported at its
/// FILE:LINE:COLUMN (lengths, names, overlaps, a zone that does not fit the window).
@Suite("Config file: zones")
struct ZoneConfigTests {
    private func errors(_ text: String) -> [String] { configurationErrors(text, path: "zones.toml") }

    @Test func zonesAreRead() throws {
        let configuration = try ConfigFile(text: """
            start-url = "https://signage.example/menu"
            [[zones]]
            name = "main"
            x = 0
            y = 0
            width = "75%"
            height = "100%"
            [[zones.playlist]]
            url = "https://signage.example/menu"
            duration = 30
            [[zones]]
            name = "badge"
            x = "90%"
            y = 0
            width = 100
            height = 100
            url = "https://signage.example/badge"
            overlap = true
            """, path: "zones.toml").configuration()
        #expect(configuration.zones == [
            Zone(name: "main", x: .pixels(0), y: .pixels(0), width: .percent(75), height: .percent(100),
                 playlist: [PlaylistEntry(url: URL(string: "https://signage.example/menu")!, duration: .seconds(30))]),
            Zone(name: "badge", x: .percent(90), y: .pixels(0), width: .pixels(100), height: .pixels(100),
                 url: URL(string: "https://signage.example/badge"), overlaps: true),
        ])
    }

    @Test func badLengthsAndMissingKeysAreReportedAtTheirPlace() {
        let problems = errors("""
            start-url = "https://signage.example/menu"
            [[zones]]
            name = "main"
            x = -1
            y = "25"
            width = "120%"
            height = true
            [[zones]]
            name = "side"
            x = 0
            y = 0
            width = 10
            """)
        let expected = [
            "zones.toml:4:5: zones[0].x must be a number of pixels from 0, or a percentage such as \"25%\", got -1",
            "zones.toml:5:5: zones[0].y must be a number of pixels from 0, or a percentage such as \"25%\", got \"25\"",
            "zones.toml:6:9: zones[0].width must be a number of pixels from 0, or a percentage such as \"25%\", got \"120%\"",
            "zones.toml:7:10: zones[0].height must be a number of pixels from 0, or a percentage such as \"25%\", got true",
            "zones.toml:8:1: zones[1]",
        ]
        for line in expected {
            #expect(problems.contains { $0.hasPrefix(line) }, "\(line)\n got: \(problems)")
        }
        #expect(problems.count == expected.count, "\(problems)")
    }

    @Test func layoutProblemsAreReportedAtTheirZone() {
        let problems = errors("""
            start-url = "https://signage.example/menu"
            [window]
            width = 1280
            height = 720
            [[schedule.playlist]]
            url = "https://signage.example/menu"
            duration = 30
            [[zones]]
            name = "main"
            x = 0
            y = 0
            width = "100%"
            height = "100%"
            [[zones]]
            name = "main"
            x = 1200
            y = 0
            width = 200
            height = 100
            """)
        let expected = [
            "zones.toml:5:1: schedule.playlist[0]: with [[zones]], each zone has its own playlist ([[zones.playlist]])",
            #"zones.toml:14:1: zones[1]: zone "main": the name is taken by another zone"#,
            #"zones.toml:14:1: zones[1]: zone "main": 200x100 at 1200,0 does not fit a 1280x720 window"#,
            #"zones.toml:14:1: zones[1]: zone "main": overlaps zone "main" (set overlap = true to draw it above)"#,
        ]
        #expect(problems == expected)
    }
}
