#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// When the screen is on, by `[[schedule.display]]`'s windows in local time.
public struct DisplayTimetable: Sendable {
    public let windows: [DisplayWindow]
    public let calendar: LocalCalendar

    public init(windows: [DisplayWindow], calendar: LocalCalendar) {
        self.windows = windows
        self.calendar = calendar
    }

    /// Whether the screen should be on at `date`: no windows, always; else while one covers it.
    public func isOn(at date: Date) -> Bool {
        guard !windows.isEmpty else { return true }
        return intervals(around: date).contains { $0.contains(date) }
    }

    /// The first instant after `date` at which `isOn` changes, with the new state; nil
    /// when it never changes (no windows, or windows that cover every moment).
    public func nextChange(after date: Date) -> (date: Date, on: Bool)? {
        guard !windows.isEmpty else { return nil }
        let now = isOn(at: date)
        let boundaries = intervals(around: date, days: 9).flatMap { [$0.lowerBound, $0.upperBound] }
            .filter { $0 > date }.sorted()
        for boundary in boundaries where isOn(at: boundary) != now {
            return (boundary, !now)
        }
        return nil
    }

    /// The on-intervals of windows starting from the day before `date` to `days` after.
    private func intervals(around date: Date, days: Int = 1) -> [Range<Date>] {
        (-1...days).flatMap { offset -> [Range<Date>] in
            let day = calendar.day(offset, from: date)
            let weekday = calendar.weekday(of: day)
            return windows.filter { $0.days.contains(weekday) && $0.on != $0.off }.map { window in
                let start = calendar.instant(window.on, onDayOf: day)
                let endDay = window.off < window.on ? calendar.day(1, from: day) : day
                let end = calendar.instant(window.off, onDayOf: endDay)
                return start..<max(start, end)
            }
        }
    }
}
