#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// When one playlist item may be shown: on `days`, between `from` and `until` (local
/// times; an `until` not later than `from` ends the next day, as a night shift does), from
/// `startDate` to `endDate` (both included). A window belongs to the day it opens: a
/// Friday 22:00–02:00 window runs into Saturday morning, and `days`/dates are checked
/// against Friday. Every field left out means no limit.
public struct ItemWindow: Sendable, Equatable {
    public var days: Set<Weekday>
    public var from: TimeOfDay?
    public var until: TimeOfDay?
    public var startDate: LocalDate?
    public var endDate: LocalDate?

    public init(days: Set<Weekday> = Set(Weekday.allCases), from: TimeOfDay? = nil, until: TimeOfDay? = nil,
                startDate: LocalDate? = nil, endDate: LocalDate? = nil) {
        self.days = days
        self.from = from
        self.until = until
        self.startDate = startDate
        self.endDate = endDate
    }

    /// No limit at all: the item is always in its window.
    public static let always = ItemWindow()

    public var isAlways: Bool { self == .always }

    /// Whether the item may be shown at `date`.
    public func contains(_ date: Date, calendar: LocalCalendar) -> Bool {
        guard !isAlways else { return true }
        // The window opened today or (when it crosses midnight) yesterday.
        return [0, -1].contains { offset in
            let day = calendar.day(offset, from: date)
            guard opens(on: day, calendar: calendar) else { return false }
            let start = from.map { calendar.instant($0, onDayOf: day) } ?? day
            let end: Date
            if let until {
                let crosses = from.map { until <= $0 } ?? false
                end = calendar.instant(until, onDayOf: crosses ? calendar.day(1, from: day) : day)
            } else {
                end = calendar.day(1, from: day)
            }
            return start <= date && date < end
        }
    }

    /// Whether a window opens on the local day starting at `day`.
    private func opens(on day: Date, calendar: LocalCalendar) -> Bool {
        guard days.contains(calendar.weekday(of: day)) else { return false }
        let date = calendar.localDate(of: day)
        if let startDate, date < startDate { return false }
        if let endDate, date > endDate { return false }
        return true
    }
}
