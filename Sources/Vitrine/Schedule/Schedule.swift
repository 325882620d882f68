#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A signage day's plan, from `[[schedule.playlist]]`, `[[schedule.reload]]` and
/// `[[schedule.display]]`: pages that take turns, reloads, and the hours the screen is on.
/// Empty (the default): nothing is scheduled.
public struct Schedule: Sendable, Equatable {
    public var playlist: [PlaylistEntry]
    public var reloads: [ReloadRule]
    /// The screen is on while one of these covers the moment; none: always on.
    public var displayWindows: [DisplayWindow]
    /// How long input during "off" keeps the screen on.
    public var wakeDuration: Duration

    public init(playlist: [PlaylistEntry] = [], reloads: [ReloadRule] = [], displayWindows: [DisplayWindow] = [],
                wakeDuration: Duration = .seconds(60)) {
        self.playlist = playlist
        self.reloads = reloads
        self.displayWindows = displayWindows
        self.wakeDuration = wakeDuration
    }

    public var isEmpty: Bool { playlist.isEmpty && reloads.isEmpty && displayWindows.isEmpty }

    /// Why `configuration`'s chain will never show `url`, as far as can be told without a
    /// page (nil: it may be shown): its origin-allowlist refuses the URL's origin.
    public static func refusal(of url: URL, in configuration: Configuration) -> String? {
        guard let allowlist = configuration.navigationChain.handlers.lazy.compactMap({ $0 as? OriginAllowlistHandler }).first
        else { return nil }
        let allowed = allowlist.origins ?? configuration.appOrigins
        guard let origin = Origin(url), allowed.contains(origin) else {
            return "is refused by the navigation chain's \(OriginAllowlistHandler.typeName): its origin is not one of the app's (add it to allowed-origins)"
        }
        return nil
    }

    /// Whether a playlist entry's `duration` is acceptable: more than zero.
    public static func acceptsDuration(_ duration: Duration) -> Bool { duration > .zero }
}

/// One page of a playlist and how long it stays.
public struct PlaylistEntry: Sendable, Equatable {
    public var url: URL
    public var duration: Duration

    public init(url: URL, duration: Duration) {
        self.url = url
        self.duration = duration
    }
}

/// When the current page is reloaded.
public enum ReloadRule: Sendable, Equatable {
    /// Every so long, counted from the start (then from the last reload).
    case every(Duration)
    /// At these local times, daily.
    case at([TimeOfDay])
}

/// The screen is on from `on` to `off` (local time) on `days`; an `off` earlier than `on`
/// ends the next morning (a night shift: on 20:00, off 02:00).
public struct DisplayWindow: Sendable, Equatable {
    public var on: TimeOfDay
    public var off: TimeOfDay
    public var days: Set<Weekday>

    public init(on: TimeOfDay, off: TimeOfDay, days: Set<Weekday> = Set(Weekday.allCases)) {
        self.on = on
        self.off = off
        self.days = days
    }
}

/// A local time of day, minutes precise: `"07:30"`.
public struct TimeOfDay: Sendable, Equatable, Hashable, Comparable, CustomStringConvertible {
    public let hour: Int
    public let minute: Int

    public init?(hour: Int, minute: Int) {
        guard (0..<24).contains(hour), (0..<60).contains(minute) else { return nil }
        self.hour = hour
        self.minute = minute
    }

    /// `"HH:MM"` with two digits each, 00:00 to 23:59; anything else is nil.
    public init?(_ text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              let hour = Int(parts[0]), let minute = Int(parts[1])
        else { return nil }
        self.init(hour: hour, minute: minute)
    }

    public static let expectation = #"a local time "HH:MM" from "00:00" to "23:59""#

    public var description: String {
        (hour < 10 ? "0" : "") + "\(hour):" + (minute < 10 ? "0" : "") + "\(minute)"
    }

    public static func < (lhs: TimeOfDay, rhs: TimeOfDay) -> Bool { (lhs.hour, lhs.minute) < (rhs.hour, rhs.minute) }
}

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
