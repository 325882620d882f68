#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The screen is on from `on` to `off` (local time) on `days`; an `off` earlier than `on`
/// ends the next morning (a night shift: on 20:00, off 02:00).
public struct ScreenOnHours: Sendable, Equatable {
    public var on: TimeOfDay
    public var off: TimeOfDay
    public var days: Set<Weekday>

    public init(on: TimeOfDay, off: TimeOfDay, days: Set<Weekday> = Set(Weekday.allCases)) {
        self.on = on
        self.off = off
        self.days = days
    }
}
