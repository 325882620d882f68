import Foundation
import Testing
import Vitrine
import VitrineConfigFile

/// `bundle = "…"` playlist entries in a file: read into the playlist, and every mistake
/// reported at its FILE:LINE:COLUMN.
@Suite("Config file: playlist bundles")
struct BundleConfigTests {
    private func errors(_ text: String) -> [String] { configurationErrors(text, path: "bundle.toml") }

    @Test func aBundleEntryIsReadWithItsDefaults() throws {
        let hash = String(repeating: "0f", count: 32)
        let configuration = try ConfigFile(text: """
            preset = "kiosk"
            start-url = "https://signage.example/menu"
            [[schedule.playlist]]
            bundle = "https://cms.example/lobby.zip"
            entry = "screens/lobby.html"
            sync-every = 60
            sha256 = "\(hash.uppercased())"
            duration = 30
            [[displays]]
            monitor = 0
            [[displays.playlist]]
            bundle = "http://127.0.0.1:8080/b.zip"
            duration = 10
            """, path: "bundle.toml").configuration()
        let entry = try #require(configuration.schedule.playlist.first)
        let bundle = try #require(entry.bundle)
        #expect(bundle == BundleSource(archiveURL: URL(string: "https://cms.example/lobby.zip")!, entry: "screens/lobby.html",
                                       syncInterval: .seconds(60), sha256: hash))
        #expect(entry.url == bundle.pageURL && entry.duration == .seconds(30) && entry.media == nil)
        let other = try #require(configuration.displays.first?.playlist.first?.bundle)
        #expect(other.entry == "index.html" && other.syncInterval == .seconds(300) && other.sha256 == nil)
        // The bundles' pages are the app's own: the kiosk's allow-list lets them through.
        #expect(configuration.appOrigins.contains(Origin(bundle.pageURL)!))
        #expect(configuration.appOrigins.contains(Origin(other.pageURL)!))
    }

    @Test func everyMistakeIsReportedAtItsEntry() {
        let found = errors("""
            [[schedule.playlist]]
            bundle = "http://cms.example/lobby.zip"
            entry = "../../etc/passwd"
            sha256 = "abc"
            duration = 5
            [[schedule.playlist]]
            bundle = "https://cms.example/a.zip"
            url = "https://cms.example/"
            duration = 5
            [[schedule.playlist]]
            bundle = "https://cms.example/b.zip"
            sync-every = 2
            duration = 5
            [[schedule.playlist]]
            bundle = "https://cms.example/c.zip"
            [[schedule.playlist]]
            url = "https://cms.example/"
            entry = "index.html"
            duration = 5
            [[schedule.playlist]]
            bundle = "https://cms.example/d.zip"
            entry = "/index.html"
            duration = 5
            """)
        let expected = [
            "bundle.toml:2:10: schedule.playlist[0].bundle must be an https URL such as \"https://cms.example/lobby.zip\" (http only to 127.0.0.1, ::1 or localhost), got \"http://cms.example/lobby.zip\"",
            "bundle.toml:3:9: schedule.playlist[0].entry must be a path inside the bundle such as \"index.html\" (no leading /, no .. or backslash), got \"../../etc/passwd\"",
            "bundle.toml:4:10: schedule.playlist[0].sha256 must be 64 hexadecimal digits, got \"abc\"",
            "bundle.toml:6:1: schedule.playlist[1] has bundle and url or video: an entry shows one of them",
            "bundle.toml:10:1: schedule.playlist[2] syncs its bundle more often than every 10 seconds (sync-every)",
            "bundle.toml:14:1: schedule.playlist[3] needs duration (seconds the page stays)",
            "bundle.toml:16:1: schedule.playlist[4] has entry and needs bundle (a zip of a site), whose keys they are",
            "bundle.toml:22:9: schedule.playlist[5].entry must be a path inside the bundle such as \"index.html\" (no leading /, no .. or backslash), got \"/index.html\"",
        ]
        for line in expected { #expect(found.contains(line), "\(line)\nin \(found)") }
        #expect(found.count == expected.count, "\(found)")
    }
}
