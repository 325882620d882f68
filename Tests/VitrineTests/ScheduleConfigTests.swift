import Foundation
import Testing
import Vitrine
import VitrineConfigFile

/// `[schedule]` and `[kiosk] rotation` in a file: read into the configuration, and every
/// mistake reported at its FILE:LINE:COLUMN.
@Suite("Config file: schedules and rotation")
struct ScheduleConfigTests {
    private func errors(_ text: String) -> [String] { configurationErrors(text, path: "signage.toml") }

    @Test func aScheduleIsReadIntoTheConfiguration() throws {
        let configuration = try ConfigFile(text: """
            preset = "kiosk"
            start-url = "https://signage.example/menu"
            allowed-origins = ["app://app"]
            [kiosk]
            rotation = 90
            [schedule]
            wake-duration = 45
            [[schedule.playlist]]
            url = "https://signage.example/menu"
            duration = 30
            [[schedule.playlist]]
            url = "app://app/promo.html"
            duration = 2.5
            [[schedule.reload]]
            every = 3600
            [[schedule.reload]]
            at = ["03:00", "12:15"]
            [[schedule.display]]
            on = "07:00"
            off = "22:30"
            days = ["mon", "tue", "wed", "thu", "fri"]
            [[schedule.display]]
            on = "10:00"
            off = "14:00"
            """, path: "signage.toml").configuration()
        let schedule = configuration.schedule
        #expect(schedule.wakeDuration == .seconds(45))
        #expect(schedule.playlist == [
            PlaylistEntry(url: URL(string: "https://signage.example/menu")!, duration: .seconds(30)),
            PlaylistEntry(url: URL(string: "app://app/promo.html")!, duration: .seconds(2.5)),
        ])
        #expect(schedule.reloads == [.every(.seconds(3600)), .at([TimeOfDay("03:00")!, TimeOfDay("12:15")!])])
        #expect(schedule.screenOnHours == [
            ScreenOnHours(on: TimeOfDay("07:00")!, off: TimeOfDay("22:30")!, days: [.mon, .tue, .wed, .thu, .fri]),
            ScreenOnHours(on: TimeOfDay("10:00")!, off: TimeOfDay("14:00")!),
        ])
        #expect(configuration.kiosk?.rotation == 90)
        #expect(ConfigFile.printedValue(of: "kiosk.rotation", in: configuration) == "90")
        #expect(ConfigFile.printableKeys.contains("kiosk.rotation"))
        #expect(ConfigFile.summary(of: configuration, preset: .kiosk).contains { $0.0 == "schedule" && $0.1.contains("2 page(s)") })
    }

    @Test func noScheduleAndNoRotationByDefault() throws {
        let configuration = try ConfigFile(text: #"start-url = "https://example.org/""#, path: "a.toml").configuration()
        #expect(configuration.schedule.isEmpty)
        #expect(ConfigFile.printedValue(of: "kiosk.rotation", in: configuration) == "0")
    }

    @Test func aPlaylistPageTheKiosksAllowListRefusesIsReportedAtItsEntry() {
        let problems = errors("""
            preset = "kiosk"
            start-url = "https://signage.example/menu"
            allowed-origins = ["https://cdn.example"]
            [[schedule.playlist]]
            url = "https://signage.example/menu"
            duration = 30
            [[schedule.playlist]]
            url = "https://elsewhere.example/promo"
            duration = 10
            [[schedule.playlist]]
            url = "https://cdn.example/video.html"
            duration = 10
            """)
        #expect(problems == [
            "signage.toml:7:1: schedule.playlist[1].url https://elsewhere.example/promo is refused by the navigation chain's origin-allowlist: its origin is not one of the app's (add it to allowed-origins)",
        ])
        // The default preset has no allow-list: any page may be in the playlist.
        #expect(errors("[[schedule.playlist]]\nurl = \"https://elsewhere.example/\"\nduration = 5\n").isEmpty)
    }

    @Test func everyMistakeIsReportedAtItsPosition() {
        let problems = errors("""
            start-url = "https://example.org/"
            [kiosk]
            rotation = 45
            [[schedule.playlist]]
            url = "menu.html"
            duration = 0
            [[schedule.playlist]]
            duration = 5
            [[schedule.reload]]
            every = 60
            at = ["03:00"]
            [[schedule.reload]]
            [[schedule.reload]]
            at = ["25:00"]
            [[schedule.display]]
            on = "7:00"
            off = "22:30"
            days = ["mon", "funday"]
            colour = "black"
            [[schedule.display]]
            on = "08:00"
            off = "08:00"
            [schedule]
            wake-duration = -1
            """)
        let expected = [
            "signage.toml:3:12: kiosk.rotation must be 0, 90, 180 or 270, got 45",
            #"signage.toml:5:7: schedule.playlist[0].url must be an absolute URL with a scheme, such as "https://example.org/", got "menu.html""#,
            "signage.toml:6:12: schedule.playlist[0].duration must be a positive number of seconds, got 0",
            "signage.toml:7:1: schedule.playlist[1] needs url (a page), video (a media file) or bundle (a zip of a site)",
            "signage.toml:9:1: schedule.reload[0] needs either every (seconds) or at (local times), not both",
            "signage.toml:12:1: schedule.reload[1] needs either every (seconds) or at (local times), not both",
            #"signage.toml:14:7: schedule.reload[2].at[0] must be a local time "HH:MM" from "00:00" to "23:59", got "25:00""#,
            #"signage.toml:16:6: schedule.display[0].on must be a local time "HH:MM" from "00:00" to "23:59", got "7:00""#,
            #"signage.toml:18:16: schedule.display[0].days[1] must be a day: one of mon, tue, wed, thu, fri, sat, sun, got "funday""#,
            "signage.toml:19:1: unknown key 'schedule.display[0].colour'; expected in [schedule.display[0]]: on, off, days",
            "signage.toml:20:1: schedule.display[1] needs different on and off times",
            "signage.toml:24:17: schedule.wake-duration must be a positive number of seconds, got -1",
        ]
        for (index, line) in expected.enumerated() {
            #expect(problems.indices.contains(index) && problems[index].hasPrefix(line), "\(line)\n got: \(problems)")
        }
        #expect(problems.count == expected.count, "\(problems)")
    }

    @Test func itemWindowsAndProofOfPlayDaysAreRead() throws {
        let configuration = try ConfigFile(text: """
            preset = "kiosk"
            start-url = "https://signage.example/menu"
            [schedule]
            proof-of-play-days = 90
            [[schedule.playlist]]
            url = "https://signage.example/menu"
            duration = 30
            [[schedule.playlist]]
            url = "https://signage.example/brunch"
            duration = 20
            days = ["sat", "sun"]
            from = "10:00"
            until = "14:30"
            [[schedule.playlist]]
            url = "https://signage.example/advent"
            duration = 20
            start-date = "2026-12-01"
            end-date = "2026-12-24"
            until = "02:00"
            """, path: "signage.toml").configuration()
        let playlist = configuration.schedule.playlist
        #expect(playlist.map(\.window) == [
            .always,
            ItemWindow(days: [.sat, .sun], from: TimeOfDay("10:00"), until: TimeOfDay("14:30")),
            ItemWindow(until: TimeOfDay("02:00"), startDate: LocalDate("2026-12-01"), endDate: LocalDate("2026-12-24")),
        ])
        #expect(configuration.schedule.proofOfPlayDays == 90)
        #expect(Schedule().proofOfPlayDays == 30)
    }

    @Test func preloadIsOnUnlessTheFileTurnsItOff() throws {
        let start = "start-url = \"https://signage.example/menu\"\n"
        let playlist = """
            [[schedule.playlist]]
            url = "https://signage.example/menu"
            duration = 30
            """
        #expect(try ConfigFile(text: start + playlist, path: "signage.toml").configuration().schedule.preload)
        let off = try ConfigFile(text: start + "[schedule]\npreload = false\n" + playlist, path: "signage.toml").configuration()
        #expect(!off.schedule.preload)
        let problems = errors("[schedule]\npreload = \"yes\"\n")
        #expect(problems.contains { $0.hasPrefix("signage.toml:2:11: schedule.preload must be") }, "\(problems)")
    }

    @Test func badItemWindowsAreReportedAtTheirEntry() {
        let problems = errors("""
            start-url = "https://example.org/"
            [schedule]
            proof-of-play-days = 0
            [[schedule.playlist]]
            url = "https://example.org/a"
            duration = 5
            start-date = "2026-02-30"
            [[schedule.playlist]]
            url = "https://example.org/b"
            duration = 5
            from = "09:00"
            until = "09:00"
            [[schedule.playlist]]
            url = "https://example.org/c"
            duration = 5
            start-date = "2026-12-24"
            end-date = "2026-12-01"
            [[schedule.playlist]]
            url = "https://example.org/d"
            duration = 5
            days = ["someday"]
            """)
        let expected = [
            "signage.toml:3:22: schedule.proof-of-play-days must be a number of days from 1 to 3650, got 0",
            #"signage.toml:7:14: schedule.playlist[0].start-date must be a date "YYYY-MM-DD" that exists, such as "2026-12-24", got "2026-02-30""#,
            "signage.toml:8:1: schedule.playlist[1] needs different from and until times",
            #"signage.toml:21:9: schedule.playlist[3].days[0] must be a day"#,
            "signage.toml:13:1: schedule.playlist[2] has an end-date (2026-12-01) before its start-date (2026-12-24)",
        ]
        for line in expected {
            #expect(problems.contains { $0.hasPrefix(line) }, "\(line)\n got: \(problems)")
        }
        #expect(problems.count == expected.count, "\(problems)")
    }
}
