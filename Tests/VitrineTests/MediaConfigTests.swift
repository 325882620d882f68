import Foundation
import Testing
import Vitrine
import VitrineConfigFile

/// `[media]`: whether media may start by itself, as a file, a default and a view see it.
@Suite("Config file: media")
struct MediaConfigTests {
    private let playlist = """
        [[schedule.playlist]]
        url = "https://signage.example/menu"
        duration = 30
        """

    @Test(arguments: AutoplayPolicy.allCases)
    func autoplayIsReadIntoTheViewsSettings(_ policy: AutoplayPolicy) throws {
        let configuration = try ConfigFile(text: "[media]\nautoplay = \"\(policy.rawValue)\"\n\(playlist)", path: "media.toml").configuration()
        #expect(configuration.autoplay == policy)
        #expect(configuration.webViewSettings.autoplay == policy, "a file's choice wins over the signage default")
    }

    @Test func signageAllowsAutoplayWithSoundByDefault() throws {
        let signage = try ConfigFile(text: playlist, path: "signage.toml").configuration()
        #expect(signage.autoplay == nil)
        #expect(signage.webViewSettings.autoplay == .allow)
        let display = try ConfigFile(text: """
            [[displays]]
            monitor = 0
            [[displays.playlist]]
            url = "https://signage.example/a"
            duration = 10
            """, path: "displays.toml").configuration()
        #expect(display.webViewSettings.autoplay == .allow)
    }

    @Test func appsAndPlainKiosksKeepWebKitsMutedDefault() throws {
        for preset in ["default", "app", "kiosk"] {
            let configuration = try ConfigFile(text: """
                preset = "\(preset)"
                start-url = "https://example.org/"
                """, path: "plain.toml").configuration()
            #expect(configuration.webViewSettings.autoplay == .muted, "\(preset)")
        }
    }

    @Test func anUnknownPolicyIsRefusedAtItsLine() {
        let errors = configurationErrors("[media]\nautoplay = \"loud\"\n", path: "media.toml")
        #expect(errors.count == 1)
        #expect(errors.first?.hasPrefix("media.toml:2:") == true, "\(errors)")
        #expect(errors.first?.contains("allow") == true, "the error names the choices: \(errors)")
    }
}

/// Media items: `video` in a playlist entry, and what the scheduler makes of their end.
@Suite("Schedule: media items")
struct MediaItemTests {
    static let clip = URL(string: "https://cms.example/clips/welcome.webm")!
    static let menu = URL(string: "https://cms.example/menu")!
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func aVideoEntryIsReadAsAMediaItem() throws {
        let configuration = try ConfigFile(text: """
            [[schedule.playlist]]
            video = "https://cms.example/clips/welcome.webm"
            [[schedule.playlist]]
            video = "https://cms.example/clips/loop.webm"
            loop = true
            duration = 60
            [[schedule.playlist]]
            url = "https://cms.example/menu"
            duration = 30
            """, path: "media.toml").configuration()
        #expect(configuration.schedule.playlist == [
            PlaylistEntry(url: Self.clip, duration: MediaPlayback.longestUnreported, media: MediaPlayback()),
            PlaylistEntry(url: URL(string: "https://cms.example/clips/loop.webm")!, duration: .seconds(60), media: MediaPlayback(loops: true)),
            PlaylistEntry(url: Self.menu, duration: .seconds(30)),
        ])
    }

    @Test func aMalformedEntryIsRefusedAtItsTable() {
        let cases = [
            ("[[schedule.playlist]]\nduration = 5\n", "needs url (a page), video (a media file) or bundle (a zip of a site)"),
            ("[[schedule.playlist]]\nurl = \"https://a.example/\"\nvideo = \"https://a.example/v.webm\"\nduration = 5\n",
             "has both url and video"),
            ("[[schedule.playlist]]\nurl = \"https://a.example/\"\n", "needs duration"),
            ("[[schedule.playlist]]\nurl = \"https://a.example/\"\nduration = 5\nloop = true\n", "has loop, which only a video entry takes"),
            ("[[schedule.playlist]]\nvideo = \"https://a.example/v.webm\"\nloop = true\n", "loops its video and needs duration"),
            ("[[displays]]\nmonitor = 0\n[[displays.playlist]]\nvideo = \"https://a.example/v.webm\"\nloop = true\n", "loops its video and needs duration"),
            ("[[schedule.playlist]]\nvideo = \"clip.webm\"\n", "video must be an absolute URL"),
        ]
        for (text, expected) in cases {
            let errors = configurationErrors(text, path: "media.toml")
            #expect(errors.count == 1 && errors[0].contains(expected), "\(text): \(errors)")
        }
    }

    @Test func aVideoTheChainRefusesIsReportedAtItsVideoKey() {
        let errors = configurationErrors("""
            preset = "kiosk"
            start-url = "https://cms.example/menu"
            [[schedule.playlist]]
            video = "https://elsewhere.example/v.webm"
            """, path: "media.toml")
        #expect(errors.count == 1 && errors[0].contains("schedule.playlist[0].video https://elsewhere.example/v.webm is refused"), "\(errors)")
    }

    private func scheduler(_ playlist: [PlaylistEntry]) -> SignageScheduler {
        var scheduler = SignageScheduler(schedule: Schedule(playlist: playlist), calendar: ScheduleTests.berlin, now: Self.start)
        #expect(scheduler.takeDue(at: Self.start).contains(.showPage(index: 0, url: playlist[0].url)))
        scheduler.pageShown(0, at: Self.start)
        return scheduler
    }

    @Test func theEndOfTheMediaItemOnScreenShowsTheNextItem() {
        var scheduler = scheduler([PlaylistEntry(url: Self.clip, duration: .seconds(3600), media: MediaPlayback()),
                                   PlaylistEntry(url: Self.menu, duration: .seconds(30))])
        #expect(scheduler.mediaEnded(showing: Self.clip, at: Self.start + 12) == .advance(.showPage(index: 1, url: Self.menu)))
        // Reported again (a flood, a late report) while the next item loads: nothing.
        #expect(scheduler.mediaEnded(showing: Self.clip, at: Self.start + 12.1) == .ignore)
    }

    @Test func aLoopingOrLoneMediaItemPlaysAgain() {
        var looping = scheduler([PlaylistEntry(url: Self.clip, duration: .seconds(60), media: MediaPlayback(loops: true)),
                                 PlaylistEntry(url: Self.menu, duration: .seconds(30))])
        #expect(looping.mediaEnded(showing: Self.clip, at: Self.start + 5) == .replay)
        var lone = scheduler([PlaylistEntry(url: Self.clip, duration: .seconds(3600), media: MediaPlayback())])
        #expect(lone.mediaEnded(showing: Self.clip, at: Self.start + 5) == .replay)
    }

    @Test func noOtherPageEndsATurn() {
        // A page item whose document reports an end (it cannot, but say a bug let it).
        var pages = scheduler([PlaylistEntry(url: Self.menu, duration: .seconds(30)),
                               PlaylistEntry(url: Self.clip, duration: .seconds(3600), media: MediaPlayback())])
        #expect(pages.mediaEnded(showing: Self.menu, at: Self.start + 1) == .ignore)
        // The media item on screen, but the view shows something else (navigated away).
        var media = scheduler([PlaylistEntry(url: Self.clip, duration: .seconds(3600), media: MediaPlayback()),
                               PlaylistEntry(url: Self.menu, duration: .seconds(30))])
        #expect(media.mediaEnded(showing: URL(string: "https://cms.example/other.webm")!, at: Self.start + 1) == .ignore)
        // An alert over it.
        _ = media.startAlert(URL(string: "https://cms.example/fire")!, for: .seconds(60), at: Self.start + 2)
        #expect(media.mediaEnded(showing: Self.clip, at: Self.start + 3) == .ignore)
    }
}
