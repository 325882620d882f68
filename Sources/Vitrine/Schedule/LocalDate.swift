#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A local calendar day, as a file writes it: `"2026-12-24"`.
public struct LocalDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    /// A day that exists in the Gregorian calendar (no 2026-02-30); nil otherwise.
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month), day >= 1,
              day <= LocalDate.length(ofMonth: month, year: year)
        else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// `"YYYY-MM-DD"`, four, two and two ASCII digits; anything else is nil.
    public init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts.map(\.count) == [4, 2, 2],
              parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
        else { return nil }
        self.init(year: year, month: month, day: day)
    }

    public static let expectation = #"a date "YYYY-MM-DD" that exists, such as "2026-12-24""#

    public var description: String {
        String(year) + "-" + (month < 10 ? "0" : "") + "\(month)-" + (day < 10 ? "0" : "") + "\(day)"
    }

    public static func < (lhs: LocalDate, rhs: LocalDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    private static func length(ofMonth month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
