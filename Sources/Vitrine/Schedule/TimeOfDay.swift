#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

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
