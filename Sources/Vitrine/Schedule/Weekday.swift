#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A day of the week, as the file spells it (`"mon"`).
public enum Weekday: String, Sendable, CaseIterable, Hashable {
    case mon, tue, wed, thu, fri, sat, sun

    /// `Calendar`'s number for it: 1 is Sunday.
    public var calendarWeekday: Int {
        switch self {
        case .sun: 1
        case .mon: 2
        case .tue: 3
        case .wed: 4
        case .thu: 5
        case .fri: 6
        case .sat: 7
        }
    }

    public init?(calendarWeekday: Int) {
        guard let day = Weekday.allCases.first(where: { $0.calendarWeekday == calendarWeekday }) else { return nil }
        self = day
    }
}
