import Foundation
import Testing
import Vitrine

/// Alerts over the schedule as values: the command's argument checked (and abused), the
/// scheduler's state while one is shown, and the schedule coming back by itself.
@Suite("Schedule: alerts that revert")
struct SignageAlertTests {
    static let berlin = ScheduleTests.berlin
    static func at(_ text: String) -> Date { ScheduleTests.at(text) }
    static let page1 = ScheduleTests.page1
    static let page2 = ScheduleTests.page2
    static let fire = URL(string: "https://signage.example/evacuate")!

    static func parse(_ text: String, _ transport: RemoteTransport = .mqtt) -> Result<RemoteCommand, RemoteCommandError> {
        RemoteCommand.parse(name: "alert", argument: Array(text.utf8), from: transport)
    }

    @Test func theAlertCommandTakesAURLAndBoundedSeconds() throws {
        #expect(try Self.parse(#"{"url":"https://signage.example/evacuate","seconds":300}"#).get() == .alert(url: Self.fire, seconds: 300))
        #expect(try Self.parse(#" {"seconds": 86400, "url": "app://app/alert.html"} "#, .sessionBus).get()
                == .alert(url: URL(string: "app://app/alert.html")!, seconds: 86_400))
        #expect(try RemoteCommand.parse(name: "alert-clear", argument: [], from: .mqtt).get() == .alertClear)
        let written = RemoteCommand.alertArgument(url: Self.fire.absoluteString, seconds: 60)
        #expect(try Self.parse(written).get() == .alert(url: Self.fire, seconds: 60))
    }

    @Test func badAndHostileAlertsAreRefusedWithAReason() {
        let refused: [(String, String)] = [
            ("", "alert takes"),
            ("https://signage.example/", "alert takes"),
            (#"{"url":"https://a.example/"}"#, "alert takes"),
            (#"{"seconds":60}"#, "alert takes"),
            (#"{"url":"https://a.example/","seconds":"60"}"#, "alert takes"),
            (#"{"url":"https://a.example/","seconds":60,"retain":true}"#, "alert takes"),
            (#"{"url":["https://a.example/"],"seconds":60}"#, "alert takes"),
            (#"{"url":"https://a.example/","seconds":0}"#, "1 to 86400"),
            (#"{"url":"https://a.example/","seconds":-5}"#, "1 to 86400"),
            (#"{"url":"https://a.example/","seconds":86401}"#, "1 to 86400"),
            (#"{"url":"https://a.example/","seconds":1e300}"#, "1 to 86400"),
            (#"{"url":"https://a.example/","seconds":2.5}"#, "1 to 86400"),
            (#"{"url":"no scheme","seconds":60}"#, "absolute URL"),
            (#"{"url":"https://a.example/\n","seconds":60}"#, "absolute URL"),
            ("[1,2]", "alert takes"),
        ]
        for (text, reason) in refused {
            guard case .failure(let error) = Self.parse(text) else {
                Issue.record("accepted: \(text)")
                continue
            }
            #expect(error.description.contains(reason), "\(text): \(error)")
        }
        // Over the limit: refused before it is read.
        let flood = #"{"url":"https://a.example/"# + String(repeating: "a", count: 9000) + #"","seconds":5}"#
        guard case .failure(let error) = Self.parse(flood) else { Issue.record("a 9 KB alert was accepted"); return }
        #expect(error.description.contains("at most 8192"))
        #expect((try? RemoteCommand.parse(name: "alert-clear", argument: Array("now".utf8), from: .mqtt).get()) == nil)
    }

    @Test func ctlDurationsAreReadStrictly() {
        #expect(SignageAlert.seconds("90") == 90)
        #expect(SignageAlert.seconds("90s") == 90)
        #expect(SignageAlert.seconds("5m") == 300)
        #expect(SignageAlert.seconds("2h") == 7200)
        for bad in ["", "m", "5 m", "1.5h", "-5", "5d", "9999999999", "٣m"] {
            #expect(SignageAlert.seconds(bad) == nil, "\(bad)")
        }
    }

    @Test func anAlertTakesOverThePlaylistAndTheScreensHoursAndEndsByItself() {
        let schedule = Schedule(playlist: [PlaylistEntry(url: Self.page1, duration: .seconds(30)),
                                           PlaylistEntry(url: Self.page2, duration: .seconds(30))],
                                screenOnHours: [ScreenOnHours(on: TimeOfDay("07:00")!, off: TimeOfDay("22:00")!)])
        let start = Self.at("2026-03-27T21:59:00+01:00")
        var scheduler = SignageScheduler(schedule: schedule, calendar: Self.berlin, now: start)
        #expect(scheduler.takeDue(at: start) == [.display(on: true, reason: "schedule"), .showPage(index: 0, url: Self.page1)])
        scheduler.pageShown(0, at: start)
        #expect(scheduler.takeDue(at: start + 30) == [.showPage(index: 1, url: Self.page2)])
        scheduler.pageShown(1, at: start + 31)
        #expect(scheduler.takeDue(at: start + 61) == [.display(on: false, reason: "schedule"), .showPage(index: 0, url: Self.page1)])
        // The screen is off (22:00:01): an alert turns it on and shows at once.
        let alertAt = start + 65
        #expect(scheduler.startAlert(Self.fire, for: .seconds(120), at: alertAt)
                == [.display(on: true, reason: "alert"), .showAlert(Self.fire)])
        #expect(scheduler.alert?.until == alertAt + 120)
        #expect(scheduler.loadingPage == nil, "the playlist page loading was abandoned")
        // Nothing of the schedule happens meanwhile: no rotation, no input wake, no command.
        #expect(scheduler.nextDate(after: alertAt + 1) == alertAt + 120)
        #expect(scheduler.takeDue(at: alertAt + 60) == [])
        #expect(scheduler.skipToNext(at: alertAt + 61) == nil)
        #expect(scheduler.setDisplay(false, at: alertAt + 62) == nil)
        scheduler.pageShown(1, at: alertAt + 63)
        #expect(scheduler.currentPage == 1, "a load report during the alert changes nothing")
        // Its end: the screen goes back to the schedule's state (off) and the playlist resumes.
        #expect(scheduler.takeDue(at: alertAt + 120)
                == [.alertEnded(reason: "expired"), .display(on: false, reason: "alert-ended"), .showPage(index: 1, url: Self.page2)])
        #expect(scheduler.alert == nil)
        #expect(scheduler.clearAlert(at: alertAt + 121) == [], "no alert to clear")
    }

    @Test func aClearedOrRefusedAlertGivesTheScreenBackAtOnce() {
        let schedule = Schedule(playlist: [PlaylistEntry(url: Self.page1, duration: .seconds(30))])
        let start = Date(timeIntervalSince1970: 1_000_000)
        var scheduler = SignageScheduler(schedule: schedule, calendar: Self.berlin, now: start)
        _ = scheduler.takeDue(at: start)
        scheduler.pageShown(0, at: start)
        #expect(scheduler.startAlert(Self.fire, for: .seconds(600), at: start + 5) == [.showAlert(Self.fire)])
        // A newer alert replaces it, and counts from now.
        #expect(scheduler.startAlert(Self.page2, for: .seconds(10), at: start + 6) == [.showAlert(Self.page2)])
        #expect(scheduler.nextDate(after: start + 6) == start + 16)
        #expect(scheduler.clearAlert(at: start + 7) == [.alertEnded(reason: "cleared"), .showPage(index: 0, url: Self.page1)])
        _ = scheduler.startAlert(Self.fire, for: .seconds(600), at: start + 8)
        #expect(scheduler.alertRefused(at: start + 8) == [.alertEnded(reason: "refused"), .showPage(index: 0, url: Self.page1)])
        // Without a playlist the start page comes back.
        var bare = SignageScheduler(schedule: Schedule(), calendar: Self.berlin, now: start)
        #expect(bare.startAlert(Self.fire, for: .seconds(1), at: start) == [.showAlert(Self.fire)])
        #expect(bare.takeDue(at: start + 1) == [.alertEnded(reason: "expired"), .showStart])
    }
}
