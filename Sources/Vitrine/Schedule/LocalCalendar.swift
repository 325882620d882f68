#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Local times of day turned into instants, in one time zone (injected: tests use a fixed
/// one). Daylight saving: a time that does not exist that day (02:30 when clocks jump
/// from 02:00 to 03:00) happens at the first instant after the gap; a time that occurs
/// twice (when clocks go back) happens once, the first time.
public struct LocalCalendar: Sendable {
    public let timeZone: TimeZone
    private let calendar: Calendar

    public init(timeZone: TimeZone = .current) {
        self.timeZone = timeZone
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        self.calendar = calendar
    }

    /// The first instant after `date` at which the local clock shows `time`.
    public func next(_ time: TimeOfDay, after date: Date) -> Date {
        let matching = DateComponents(hour: time.hour, minute: time.minute, second: 0)
        return calendar.nextDate(after: date, matching: matching, matchingPolicy: .nextTime,
                                 repeatedTimePolicy: .first, direction: .forward)
            ?? date.addingTimeInterval(86_400)  // unreachable for a valid time; never stall
    }

    /// `time` on the local day that holds `day`.
    public func instant(_ time: TimeOfDay, onDayOf day: Date) -> Date {
        next(time, after: startOfDay(day).addingTimeInterval(-1))
    }

    public func startOfDay(_ date: Date) -> Date { calendar.startOfDay(for: date) }

    /// The local day `offset` days from the one holding `date` (its start).
    public func day(_ offset: Int, from date: Date) -> Date {
        let start = startOfDay(date)
        // Noon never falls into a daylight-saving gap; the day's start is taken from it.
        let noon = calendar.date(byAdding: .hour, value: 12, to: start) ?? start
        return startOfDay(calendar.date(byAdding: .day, value: offset, to: noon) ?? noon)
    }

    /// The local calendar day holding `date`.
    public func localDate(of date: Date) -> LocalDate {
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return LocalDate(year: parts.year ?? 1970, month: parts.month ?? 1, day: parts.day ?? 1)
            ?? LocalDate(year: 1970, month: 1, day: 1)!
    }

    public func weekday(of date: Date) -> Weekday {
        Weekday(calendarWeekday: calendar.component(.weekday, from: date)) ?? .mon
    }
}
