import Foundation
import Testing
import Vitrine

/// The signage schedule as values: local times, daylight saving, the playlist's turns,
/// reloads and the screen's hours — a whole day in microseconds, with a fixed time zone.
@Suite("Schedule: times, playlist, reloads, display")
struct ScheduleTests {
    static let berlin = LocalCalendar(timeZone: TimeZone(identifier: "Europe/Berlin")!)

    /// An instant from an ISO 8601 text with its offset.
    static func at(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }
    static func time(_ text: String) -> TimeOfDay { TimeOfDay(text)! }
    static let page1 = URL(string: "https://signage.example/menu")!
    static let page2 = URL(string: "app://app/promo.html")!
    static let page3 = URL(string: "https://signage.example/third")!

    @Test func timesOfDayAreReadStrictly() {
        #expect(TimeOfDay("07:30") == TimeOfDay(hour: 7, minute: 30))
        #expect(TimeOfDay("23:59")?.description == "23:59")
        for bad in ["25:00", "7:30", "07:60", "0730", "07:30:00", "", "ab:cd", "-1:00", "24:00"] {
            #expect(TimeOfDay(bad) == nil, "\(bad)")
        }
    }

    @Test func aDailyTimeAcrossTheSpringDaylightSavingChange() {
        let calendar = Self.berlin
        // 2026-03-29: Berlin's clocks go from 02:00 to 03:00.
        let before = Self.at("2026-03-28T03:00:00+01:00")
        let next = calendar.next(Self.time("03:00"), after: before)
        #expect(next == Self.at("2026-03-29T03:00:00+02:00"))
        #expect(next.timeIntervalSince(before) == 23 * 3600)
        // 02:30 does not exist that day: the first instant after the gap.
        #expect(calendar.next(Self.time("02:30"), after: Self.at("2026-03-29T00:00:00+01:00")) == Self.at("2026-03-29T03:00:00+02:00"))
    }

    @Test func aTimeThatOccursTwiceInAutumnHappensOnce() {
        let calendar = Self.berlin
        // 2026-10-25: clocks go back from 03:00 to 02:00; 02:30 occurs twice.
        let first = calendar.next(Self.time("02:30"), after: Self.at("2026-10-25T00:00:00+02:00"))
        #expect(first == Self.at("2026-10-25T02:30:00+02:00"))
        let second = calendar.next(Self.time("02:30"), after: first)
        #expect(second == Self.at("2026-10-26T02:30:00+01:00"))
    }

    @Test func displayHoursOnWeekdaysAndAcrossMidnightAndDaylightSaving() {
        let weekdays = ScreenOnHours(on: Self.time("07:00"), off: Self.time("22:30"), days: [.mon, .tue, .wed, .thu, .fri])
        let timetable = DisplayTimetable(hours: [weekdays], calendar: Self.berlin)
        // Friday 2026-03-27.
        #expect(timetable.isOn(at: Self.at("2026-03-27T12:00:00+01:00")))
        #expect(!timetable.isOn(at: Self.at("2026-03-27T06:59:00+01:00")))
        #expect(!timetable.isOn(at: Self.at("2026-03-27T22:30:00+01:00")))
        let off = timetable.nextChange(after: Self.at("2026-03-27T12:00:00+01:00"))
        #expect(off?.date == Self.at("2026-03-27T22:30:00+01:00") && off?.on == false)
        // The weekend (and the spring change on Sunday) is skipped: Monday 07:00, summer time.
        let on = timetable.nextChange(after: Self.at("2026-03-27T22:30:00+01:00"))
        #expect(on?.date == Self.at("2026-03-30T07:00:00+02:00") && on?.on == true)

        let night = DisplayTimetable(hours: [ScreenOnHours(on: Self.time("20:00"), off: Self.time("02:00"))], calendar: Self.berlin)
        #expect(night.isOn(at: Self.at("2026-03-27T01:00:00+01:00")))
        #expect(!night.isOn(at: Self.at("2026-03-27T12:00:00+01:00")))
        #expect(night.nextChange(after: Self.at("2026-03-27T21:00:00+01:00"))?.date == Self.at("2026-03-28T02:00:00+01:00"))
        #expect(DisplayTimetable(hours: [], calendar: Self.berlin).nextChange(after: .now) == nil)
    }

    @Test func thePlaylistTurnsAndSkipsAFailedPage() {
        let schedule = Schedule(playlist: [
            PlaylistEntry(url: Self.page1, duration: .seconds(30)),
            PlaylistEntry(url: Self.page2, duration: .seconds(10)),
            PlaylistEntry(url: Self.page3, duration: .seconds(5)),
        ])
        let start = Self.at("2026-03-27T12:00:00+01:00")
        var scheduler = SignageScheduler(schedule: schedule, calendar: Self.berlin, now: start)
        #expect(scheduler.nextDate(after: start) == start)
        #expect(scheduler.takeDue(at: start) == [.showPage(index: 0, url: Self.page1)])
        #expect(scheduler.nextDate(after: start) == nil, "nothing turns while the first page loads")
        scheduler.pageShown(0, at: start + 1)
        #expect(scheduler.nextDate(after: start + 1) == start + 31)
        #expect(scheduler.takeDue(at: start + 20) == [])
        #expect(scheduler.takeDue(at: start + 31) == [.showPage(index: 1, url: Self.page2)])
        // Page 2 fails: page 3 at once; it shows and stays 5 s.
        #expect(scheduler.pageFailed(1, at: start + 32) == .showPage(index: 2, url: Self.page3))
        scheduler.pageShown(2, at: start + 33)
        #expect(scheduler.nextDate(after: start + 33) == start + 38)
        #expect(scheduler.takeDue(at: start + 38) == [.showPage(index: 0, url: Self.page1)])
        // Page 1 fails, then page 2: the turn ends, page 3 stays for its duration again.
        #expect(scheduler.pageFailed(0, at: start + 39) == .showPage(index: 1, url: Self.page2))
        #expect(scheduler.pageFailed(1, at: start + 40) == nil)
        #expect(scheduler.currentPage == 2)
        #expect(scheduler.nextDate(after: start + 40) == start + 45)
        // The failed page is tried again on its next turn.
        #expect(scheduler.takeDue(at: start + 45) == [.showPage(index: 0, url: Self.page1)])
        // A stale report (not the page loading) changes nothing.
        #expect(scheduler.pageFailed(2, at: start + 46) == nil)
        #expect(scheduler.loadingPage == 0)
    }

    @Test func oneEntryDoesNotRotateAndNextSkipsOnCommand() {
        var single = SignageScheduler(schedule: Schedule(playlist: [PlaylistEntry(url: Self.page1, duration: .seconds(1))]),
                                      calendar: Self.berlin, now: Date(timeIntervalSince1970: 0))
        _ = single.takeDue(at: Date(timeIntervalSince1970: 0))
        single.pageShown(0, at: Date(timeIntervalSince1970: 0))
        #expect(single.nextDate(after: Date(timeIntervalSince1970: 0)) == nil)
        #expect(single.skipToNext(at: Date(timeIntervalSince1970: 5)) == nil)

        let two = Schedule(playlist: [PlaylistEntry(url: Self.page1, duration: .seconds(60)), PlaylistEntry(url: Self.page2, duration: .seconds(60))])
        var scheduler = SignageScheduler(schedule: two, calendar: Self.berlin, now: Date(timeIntervalSince1970: 0))
        _ = scheduler.takeDue(at: Date(timeIntervalSince1970: 0))
        scheduler.pageShown(0, at: Date(timeIntervalSince1970: 0))
        #expect(scheduler.skipToNext(at: Date(timeIntervalSince1970: 5)) == .showPage(index: 1, url: Self.page2))
    }

    @Test func reloadsEverySoOftenAndAtLocalTimes() {
        let schedule = Schedule(reloads: [.every(.seconds(3600)), .at([Self.time("03:00")])])
        let start = Self.at("2026-03-28T23:30:00+01:00")
        var scheduler = SignageScheduler(schedule: schedule, calendar: Self.berlin, now: start)
        #expect(scheduler.nextDate(after: start) == start + 3600)
        #expect(scheduler.takeDue(at: start + 3600) == [.reload])
        var now = start + 3600
        var reloads: [Date] = []
        while let next = scheduler.nextDate(after: now), next < Self.at("2026-03-29T04:00:00+02:00") {
            now = next
            if scheduler.takeDue(at: now) == [.reload] { reloads.append(now) }
        }
        // Hourly from 00:30 (winter), across the change, and 03:00 summer time once.
        #expect(reloads.contains(Self.at("2026-03-29T03:00:00+02:00")))
        #expect(reloads.count == 3, "01:30 CET, 03:00 CEST (daily), 03:30 CEST (hourly): \(reloads)")
    }

    @Test func theScreenFollowsItsHoursInputWakesItAndACommandHoldsUntilTheNextChange() {
        let schedule = Schedule(screenOnHours: [ScreenOnHours(on: Self.time("07:00"), off: Self.time("22:30"))],
                                wakeDuration: .seconds(60))
        let night = Self.at("2026-03-27T23:00:00+01:00")
        var scheduler = SignageScheduler(schedule: schedule, calendar: Self.berlin, now: night)
        #expect(scheduler.nextDate(after: night) == night)
        #expect(scheduler.takeDue(at: night) == [.display(on: false, reason: "schedule")])
        #expect(scheduler.nextDate(after: night) == Self.at("2026-03-28T07:00:00+01:00"))
        // A touch at night: on for a minute, then off again.
        #expect(scheduler.wake(at: night + 10) == .display(on: true, reason: "input"))
        #expect(scheduler.wake(at: night + 20) == nil, "already on")
        #expect(scheduler.nextDate(after: night + 20) == night + 70)
        #expect(scheduler.takeDue(at: night + 70) == [.display(on: false, reason: "wake-ended")])
        // Morning.
        let morning = Self.at("2026-03-28T07:00:00+01:00")
        #expect(scheduler.takeDue(at: morning) == [.display(on: true, reason: "schedule")])
        // Turned off by command at noon: stays off on later checks, until the evening's change.
        #expect(scheduler.setDisplay(false, at: morning + 5 * 3600) == .display(on: false, reason: "command"))
        #expect(scheduler.takeDue(at: morning + 6 * 3600) == [])
        #expect(scheduler.displayOn == false)
        #expect(scheduler.takeDue(at: Self.at("2026-03-29T07:00:00+02:00")) == [.display(on: true, reason: "schedule")])
        #expect(ScheduledAction.display(on: false, reason: "command").event == .native(action: .displayOff, detail: "command"))
    }
}

