#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// When the screen is on, by `[[schedule.display]]`'s hours in local time.
public struct DisplayTimetable: Sendable {
    public let hours: [ScreenOnHours]
    public let calendar: LocalCalendar

    public init(hours: [ScreenOnHours], calendar: LocalCalendar) {
        self.hours = hours
        self.calendar = calendar
    }

    /// Whether the screen should be on at `date`: no hours, always; else while they cover it.
    public func isOn(at date: Date) -> Bool {
        guard !hours.isEmpty else { return true }
        return intervals(around: date).contains { $0.contains(date) }
    }

    /// The first instant after `date` at which `isOn` changes, with the new state; nil
    /// when it never changes (no hours, or hours that cover every moment).
    public func nextChange(after date: Date) -> (date: Date, on: Bool)? {
        guard !hours.isEmpty else { return nil }
        let now = isOn(at: date)
        let boundaries = intervals(around: date, days: 9).flatMap { [$0.lowerBound, $0.upperBound] }
            .filter { $0 > date }.sorted()
        for boundary in boundaries where isOn(at: boundary) != now {
            return (boundary, !now)
        }
        return nil
    }

    /// The on-intervals of the hours starting from the day before `date` to `days` after.
    private func intervals(around date: Date, days: Int = 1) -> [Range<Date>] {
        (-1...days).flatMap { offset -> [Range<Date>] in
            let day = calendar.day(offset, from: date)
            let weekday = calendar.weekday(of: day)
            return hours.filter { $0.days.contains(weekday) && $0.on != $0.off }.map { span in
                let start = calendar.instant(span.on, onDayOf: day)
                let endDay = span.off < span.on ? calendar.day(1, from: day) : day
                let end = calendar.instant(span.off, onDayOf: endDay)
                return start..<max(start, end)
            }
        }
    }
}
