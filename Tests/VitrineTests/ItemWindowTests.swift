import Foundation
import Testing
import Vitrine

/// Playlist items with windows (`days`, `from`/`until`, `start-date`/`end-date`): read
/// strictly, checked in local time across midnight and daylight saving, and skipped by the
/// scheduler when out of them.
@Suite("Schedule: item windows")
struct ItemWindowTests {
    static let berlin = ScheduleTests.berlin
    static func at(_ text: String) -> Date { ScheduleTests.at(text) }
    static func time(_ text: String) -> TimeOfDay { TimeOfDay(text)! }
    static let menu = URL(string: "https://signage.example/menu")!
    static let breakfast = URL(string: "https://signage.example/breakfast")!
    static let night = URL(string: "https://signage.example/night")!

    @Test func datesAreReadStrictly() {
        #expect(LocalDate("2026-12-24")?.description == "2026-12-24")
        #expect(LocalDate("2028-02-29") != nil, "a leap day")
        for bad in ["2026-02-29", "2026-13-01", "2026-00-10", "2026-04-31", "26-12-24", "2026-1-05", "2026/12/24", "", "2026-12-24T00:00",
                    "２０２６-12-24", "-026-12-24"] {
            #expect(LocalDate(bad) == nil, "\(bad)")
        }
        #expect(LocalDate("2026-01-31")! < LocalDate("2026-02-01")!)
    }

    @Test func aWindowAcrossMidnightBelongsToTheDayItOpens() {
        // Fridays 22:00 to 02:00: Friday night into Saturday morning, not Thursday's.
        let window = ItemWindow(days: [.fri], from: Self.time("22:00"), until: Self.time("02:00"))
        #expect(window.contains(Self.at("2026-03-27T23:30:00+01:00"), calendar: Self.berlin))   // Friday
        #expect(window.contains(Self.at("2026-03-28T01:59:00+01:00"), calendar: Self.berlin))   // Saturday morning
        #expect(!window.contains(Self.at("2026-03-28T02:00:00+01:00"), calendar: Self.berlin))
        #expect(!window.contains(Self.at("2026-03-27T01:00:00+01:00"), calendar: Self.berlin))  // Friday morning: Thursday's
        #expect(!window.contains(Self.at("2026-03-28T23:00:00+01:00"), calendar: Self.berlin))  // Saturday night
    }

    @Test func windowsFollowLocalTimeAcrossDaylightSaving() {
        // 2026-03-29: 02:00 → 03:00 in Berlin. 01:00–04:00 lasts two hours that night.
        let window = ItemWindow(from: Self.time("01:00"), until: Self.time("04:00"))
        #expect(window.contains(Self.at("2026-03-29T03:30:00+02:00"), calendar: Self.berlin))
        #expect(!window.contains(Self.at("2026-03-29T04:00:00+02:00"), calendar: Self.berlin))
        #expect(window.contains(Self.at("2026-03-29T01:00:00+01:00"), calendar: Self.berlin))
        #expect(!window.contains(Self.at("2026-03-29T00:59:00+01:00"), calendar: Self.berlin))
        // 2026-10-25: 03:00 → 02:00. Until 02:30 ends at its first occurrence.
        let autumn = ItemWindow(from: Self.time("01:00"), until: Self.time("02:30"))
        #expect(autumn.contains(Self.at("2026-10-25T02:29:00+02:00"), calendar: Self.berlin))
        #expect(!autumn.contains(Self.at("2026-10-25T02:10:00+01:00"), calendar: Self.berlin))
        // A window that starts in the spring gap opens at the first instant after it.
        let gap = ItemWindow(from: Self.time("02:30"), until: Self.time("05:00"))
        #expect(gap.contains(Self.at("2026-03-29T03:00:00+02:00"), calendar: Self.berlin))
        #expect(!gap.contains(Self.at("2026-03-29T01:59:00+01:00"), calendar: Self.berlin))
    }

    @Test func datesLimitTheDaysInclusivelyInLocalTime() {
        let advent = ItemWindow(startDate: LocalDate("2026-12-01"), endDate: LocalDate("2026-12-24"))
        #expect(!advent.contains(Self.at("2026-11-30T23:59:00+01:00"), calendar: Self.berlin))
        #expect(advent.contains(Self.at("2026-12-01T00:00:00+01:00"), calendar: Self.berlin))
        #expect(advent.contains(Self.at("2026-12-24T23:59:00+01:00"), calendar: Self.berlin))
        // 23:30 UTC on the 24th is already the 25th in Berlin.
        #expect(!advent.contains(Self.at("2026-12-24T23:30:00Z"), calendar: Self.berlin))
        // A night window opening on the last day runs on past midnight.
        let lastNight = ItemWindow(from: Self.time("20:00"), until: Self.time("01:00"), endDate: LocalDate("2026-12-24"))
        #expect(lastNight.contains(Self.at("2026-12-25T00:30:00+01:00"), calendar: Self.berlin))
        #expect(!lastNight.contains(Self.at("2026-12-25T20:30:00+01:00"), calendar: Self.berlin))
        // Only an until: from the day's start; only a from: to its end.
        let morning = ItemWindow(until: Self.time("11:00"))
        #expect(morning.contains(Self.at("2026-12-02T00:00:00+01:00"), calendar: Self.berlin))
        #expect(!morning.contains(Self.at("2026-12-02T11:00:00+01:00"), calendar: Self.berlin))
    }

    @Test func theSchedulerSkipsItemsOutOfTheirWindow() {
        let schedule = Schedule(playlist: [
            PlaylistEntry(url: Self.menu, duration: .seconds(30)),
            PlaylistEntry(url: Self.breakfast, duration: .seconds(30), window: ItemWindow(until: Self.time("11:00"))),
            PlaylistEntry(url: Self.night, duration: .seconds(30), window: ItemWindow(from: Self.time("22:00"), until: Self.time("02:00"))),
        ])
        let noon = Self.at("2026-03-27T12:00:00+01:00")
        var scheduler = SignageScheduler(schedule: schedule, calendar: Self.berlin, now: noon)
        #expect(scheduler.takeDue(at: noon) == [.showPage(index: 0, url: Self.menu)])
        scheduler.pageShown(0, at: noon)
        // At noon breakfast and night are out: both skipped, the menu stays on.
        #expect(scheduler.takeDue(at: noon + 30) == [.skip(index: 1, url: Self.breakfast), .skip(index: 2, url: Self.night)])
        #expect(scheduler.currentPage == 0 && scheduler.loadingPage == nil)
        #expect(scheduler.nextDate(after: noon + 30) == noon + 60)
        #expect(scheduler.skipToNext(at: noon + 31) == nil, "next has nothing in its window to go to")
        // Late on Friday: breakfast is skipped, the night item shown; after midnight the menu's turn.
        let late = Self.at("2026-03-27T23:59:00+01:00")
        var night = SignageScheduler(schedule: schedule, calendar: Self.berlin, now: late)
        _ = night.takeDue(at: late)
        night.pageShown(0, at: late)
        #expect(night.takeDue(at: late + 30) == [.skip(index: 1, url: Self.breakfast), .showPage(index: 2, url: Self.night)])
        night.pageShown(2, at: late + 31)
        #expect(night.takeDue(at: late + 61) == [.showPage(index: 0, url: Self.menu)])
    }

    @Test func withNothingInItsWindowTheStartPageStaysAndTheFirstToOpenIsShownAtItsMinute() {
        let schedule = Schedule(playlist: [
            PlaylistEntry(url: Self.breakfast, duration: .seconds(30), window: ItemWindow(from: Self.time("07:00"), until: Self.time("11:00"))),
            PlaylistEntry(url: Self.night, duration: .seconds(30), window: ItemWindow(from: Self.time("22:00"), until: Self.time("02:00"))),
        ])
        let start = Self.at("2026-03-27T06:58:30+01:00")
        var scheduler = SignageScheduler(schedule: schedule, calendar: Self.berlin, now: start)
        #expect(scheduler.takeDue(at: start) == [], "nothing to show: the start page stays")
        #expect(scheduler.nextDate(after: start) == Self.at("2026-03-27T06:59:00+01:00"))
        #expect(scheduler.takeDue(at: Self.at("2026-03-27T06:59:00+01:00")) == [])
        let seven = Self.at("2026-03-27T07:00:00+01:00")
        #expect(scheduler.nextDate(after: Self.at("2026-03-27T06:59:00+01:00")) == seven)
        #expect(scheduler.takeDue(at: seven) == [.showPage(index: 0, url: Self.breakfast)])
        scheduler.pageShown(0, at: seven)
        // Its only company is out: it stays, its turns repeat without a reload.
        #expect(scheduler.takeDue(at: seven + 30) == [.skip(index: 1, url: Self.night)])
        #expect(scheduler.takeDue(at: seven + 60) == [.skip(index: 1, url: Self.night)])
        // At 11:00 its own window closes: it stays on screen (the last content), looked at each minute, no skips logged.
        let eleven = Self.at("2026-03-27T11:00:10+01:00")
        #expect(scheduler.takeDue(at: eleven) == [.skip(index: 1, url: Self.night)])
        #expect(scheduler.nextDate(after: eleven) == Self.at("2026-03-27T11:01:00+01:00"))
        #expect(scheduler.takeDue(at: Self.at("2026-03-27T11:01:00+01:00")) == [])
        #expect(scheduler.currentPage == 0)
        let ten = Self.at("2026-03-27T22:00:00+01:00")
        #expect(scheduler.takeDue(at: ten) == [.showPage(index: 1, url: Self.night)])
    }
}
