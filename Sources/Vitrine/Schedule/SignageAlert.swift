#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An alert page over the whole schedule (`vitrine ctl alert`, MQTT `cmd/alert`): shown
/// at once with the screen on, whatever the playlist and the screen's hours say, until
/// `until` or an `alert-clear`; then the schedule comes back by itself.
public struct SignageAlert: Sendable, Equatable {
    public let url: URL
    public let startedAt: Date
    public let until: Date

    public init(url: URL, startedAt: Date, duration: Duration) {
        self.url = url
        self.startedAt = startedAt
        until = startedAt + duration
    }

    /// The longest an alert may last: one day. A forgotten alert ends by itself.
    public static let longestSeconds = 86_400

    /// Whether an alert of `seconds` is accepted: 1 second to a day.
    public static func acceptsSeconds(_ seconds: Int) -> Bool { (1...longestSeconds).contains(seconds) }

    /// A duration as `vitrine ctl alert --for` takes it: whole seconds (`90`, `90s`), minutes
    /// (`5m`) or hours (`2h`); nil for anything else.
    public static func seconds(_ text: String) -> Int? {
        let units: [Character: Int] = ["s": 1, "m": 60, "h": 3600]
        let unit = text.last.flatMap { units[$0] }
        let digits = unit == nil ? Substring(text) : text.dropLast()
        guard !digits.isEmpty, digits.count <= 6, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(digits) else { return nil }
        return value * (unit ?? 1)
    }

    /// The remaining seconds at `now`, at least 0.
    public func remainingSeconds(at now: Date) -> Int { max(0, Int(until.timeIntervalSince(now).rounded(.up))) }
}
