import Foundation
import Testing
import Vitrine
import VitrineConfigFile

/// `[[displays]]`: which window goes on which monitor as monitors come and go, and the
/// tables read from a file with their mistakes at FILE:LINE:COLUMN.
@Suite("Displays: layout on monitors")
struct DisplayLayoutTests {
    let hdmi = Monitor(index: 0, connector: "HDMI-1", x: 0, y: 0, width: 1920, height: 1080)
    let dp = Monitor(index: 1, connector: "DP-2", x: 1920, y: 0, width: 1280, height: 1024)
    let menu = URL(string: "https://signage.example/menu")!
    let board = URL(string: "https://signage.example/board")!

    var displays: [DisplaySetting] {
        [DisplaySetting(monitor: .connector("dp-2"), startURL: menu), DisplaySetting(monitor: .index(0), startURL: board)]
    }

    @Test func eachDisplayGoesOnTheMonitorItNamesByConnectorOrIndex() {
        let layout = DisplayLayout(displays: displays, monitors: [hdmi, dp], primary: 0)
        #expect(layout.placements == [.init(display: 0, monitor: dp), .init(display: 1, monitor: hdmi)])
        #expect(DisplayLayout.eventDetail(layout.placements[0], url: menu.absoluteString) == "0 1:DP-2 \(menu.absoluteString)")
    }

    @Test func aMonitorThatGoesAwayClosesItsWindowOnlyAndOneThatComesBackReopensIt() {
        let both = DisplayLayout(displays: displays, monitors: [hdmi, dp], primary: 0)
        // DP-2 unplugged: GDK lists HDMI-1 alone.
        let hdmiOnly = DisplayLayout(displays: displays, monitors: [hdmi], primary: 0)
        #expect(hdmiOnly.placements == [.init(display: 1, monitor: hdmi)])
        let unplugged = both.changes(to: hdmiOnly)
        #expect(unplugged.close == [.init(display: 0, monitor: dp)])
        #expect(unplugged.open.isEmpty)
        let replugged = hdmiOnly.changes(to: both)
        #expect(replugged == .init(close: [], open: [.init(display: 0, monitor: dp)]))
        #expect(both.changes(to: both).isEmpty)
    }

    @Test func withNoConfiguredMonitorPresentTheFirstDisplayGoesOnThePrimary() {
        let other = Monitor(index: 0, connector: "eDP-1", width: 1366, height: 768)
        let primary = Monitor(index: 1, connector: "VGA-1", x: 1366, width: 1024, height: 768)
        let settings = [DisplaySetting(monitor: .connector("HDMI-1"), startURL: menu),
                        DisplaySetting(monitor: .index(5), startURL: board)]
        let layout = DisplayLayout(displays: settings, monitors: [other, primary], primary: 1)
        #expect(layout.placements == [.init(display: 0, monitor: primary, isFallback: true)])
        #expect(DisplayLayout.eventDetail(layout.placements[0], url: nil) == "0 1:VGA-1 fallback -")
        // No monitor at all: no window, and the first one to appear gets it.
        let none = DisplayLayout(displays: settings, monitors: [], primary: nil)
        #expect(none.placements.isEmpty)
        #expect(none.changes(to: layout).open == layout.placements)
        // The configured monitor arrives: the fallback window moves to it.
        let hdmiBack = DisplayLayout(displays: settings, monitors: [other, primary, Monitor(index: 2, connector: "HDMI-1")], primary: 1)
        let moved = layout.changes(to: hdmiBack)
        #expect(moved.close == layout.placements)
        #expect(moved.open == [.init(display: 0, monitor: Monitor(index: 2, connector: "HDMI-1"))])
    }

    @Test func aMonitorChangingSizeOrNamedLateKeepsItsWindowAndTwoDisplaysNeverShareOne() {
        let byIndex = [DisplaySetting(monitor: .index(1), startURL: menu), DisplaySetting(monitor: .index(0), startURL: board)]
        // Wayland: a monitor is announced before its name and size are known.
        let announced = Monitor(index: 1, connector: nil)
        let layout = DisplayLayout(displays: byIndex, monitors: [hdmi, announced])
        var bigger = dp
        bigger.width = 2560
        #expect(layout.changes(to: DisplayLayout(displays: byIndex, monitors: [hdmi, bigger])).isEmpty)
        // HDMI-1 (monitor 0) unplugged: GDK renumbers, DP-2 is monitor 0 now. Display 1's
        // window was on HDMI-1: it is opened again on DP-2, and display 0's closes.
        let named = DisplayLayout(displays: byIndex, monitors: [hdmi, dp])
        let renumbered = Monitor(index: 0, connector: "DP-2", width: 1280, height: 1024)
        let moved = named.changes(to: DisplayLayout(displays: byIndex, monitors: [renumbered]))
        #expect(moved.close == named.placements)
        #expect(moved.open == [.init(display: 1, monitor: renumbered)])
        let sharing = [DisplaySetting(monitor: .index(1)), DisplaySetting(monitor: .connector("DP-2"))]
        #expect(DisplayLayout(displays: sharing, monitors: [hdmi, dp]).placements == [.init(display: 0, monitor: dp)])
    }

    // MARK: The file

    private func errors(_ text: String) -> [String] { configurationErrors(text, path: "displays.toml") }

    @Test func displaysAreReadIntoTheConfigurationWithEachWindowsPage() throws {
        let configuration = try ConfigFile(text: """
            preset = "kiosk"
            start-url = "https://signage.example/menu"
            [[schedule.playlist]]
            url = "https://signage.example/menu"
            duration = 30
            [[displays]]
            monitor = 0
            [[displays]]
            monitor = "HDMI-2"
            start-url = "https://signage.example/board"
            [[displays]]
            monitor = 2
            [[displays.playlist]]
            url = "https://signage.example/board"
            duration = 5
            [[displays.playlist]]
            url = "https://signage.example/menu"
            duration = 7.5
            """, path: "displays.toml").configuration()
        let ownPlaylist = [PlaylistEntry(url: board, duration: .seconds(5)), PlaylistEntry(url: menu, duration: .seconds(7.5))]
        #expect(configuration.displays == [DisplaySetting(monitor: .index(0)),
                                           DisplaySetting(monitor: .connector("HDMI-2"), startURL: board),
                                           DisplaySetting(monitor: .index(2), playlist: ownPlaylist)])
        // The third runs its own playlist, from the file's start page.
        let third = configuration.forDisplay(configuration.displays[2])
        #expect(third.schedule.playlist == ownPlaylist)
        #expect(third.startURL == menu)
        // The first window keeps the playlist; the second shows its own page alone.
        #expect(configuration.forDisplay(configuration.displays[0]).schedule.playlist.count == 1)
        let second = configuration.forDisplay(configuration.displays[1])
        #expect(second.startURL == board)
        #expect(second.schedule.playlist.isEmpty)
        #expect(second.appOrigins == configuration.appOrigins)
        #expect(ConfigFile.summary(of: configuration, preset: .kiosk).contains {
            $0.0 == "displays" && $0.1.contains("monitor HDMI-2: \(board.absoluteString); monitor 2: \(menu.absoluteString) (2 page(s) in turn)")
        })
    }

    @Test func mistakesAreReportedWhereTheyAre() {
        #expect(errors("""
            preset = "kiosk"
            start-url = "https://signage.example/menu"
            [[displays]]
            monitor = -1
            [[displays]]
            start-url = "https://signage.example/board"
            [[displays]]
            monitor = "HDMI 1"
            [[displays]]
            monitor = 0
            colour = "red"
            """) == [
                #"displays.toml:4:11: displays[0].monitor must be a monitor index from 0 or a connector name such as "HDMI-1", got -1"#,
                "displays.toml:5:1: displays[1] needs monitor: the monitor: its index from 0, or its connector such as \"HDMI-1\"",
                #"displays.toml:8:11: displays[2].monitor must be a monitor index from 0 or a connector name such as "HDMI-1", got "HDMI 1""#,
                #"displays.toml:11:1: unknown key 'displays[3].colour'; expected in [displays[3]]: monitor, start-url, playlist"#,
            ])
        #expect(errors("""
            preset = "kiosk"
            start-url = "https://signage.example/menu"
            [[displays]]
            monitor = "DP-1"
            [[displays]]
            monitor = "DP-1"
            [[displays]]
            monitor = 1
            start-url = "https://elsewhere.example/"
            [[displays]]
            monitor = 2
            [[displays.playlist]]
            url = "https://signage.example/fine"
            duration = 5
            [[displays.playlist]]
            url = "https://elsewhere.example/promo"
            duration = 5
            """) == [
                "displays.toml:5:1: displays[1].monitor DP-1 is already displays[0]'s: one window per monitor",
                "displays.toml:7:1: displays[2].start-url https://elsewhere.example/ is refused by the navigation chain's origin-allowlist: its origin is not one of the app's (add it to allowed-origins)",
                "displays.toml:15:1: displays[3].playlist[1].url https://elsewhere.example/promo is refused by the navigation chain's origin-allowlist: its origin is not one of the app's (add it to allowed-origins)",
            ])
        #expect(errors("""
            start-url = "https://signage.example/menu"
            [[displays]]
            monitor = 0
            [[displays.playlist]]
            url = "https://signage.example/menu"
            """) == ["displays.toml:4:1: displays[0].playlist[0] needs duration (seconds the page stays)"])
    }
}
