#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// Proof of play: one playlist item's turn on one display — when it started and ended and
/// how it went. Written to the events log (`proof-of-play` lines), the daily files of
/// `ProofOfPlayLog`, MQTT's `proof-of-play` topic and the per-item metrics.
public struct PlayRecord: Sendable, Equatable {
    /// How an item's turn went.
    public enum Outcome: String, Sendable, CaseIterable {
        /// On screen from `start` to `end`.
        case shown
        /// Its turn came while it was out of its window (`days`, `from`/`until`, dates).
        case skipped
        /// Its page could not be loaded, or the navigation chain refused it.
        case failed
        /// Its last good copy was shown while the live page could not be reached.
        case stale
    }

    /// The item's place in its playlist, from 0.
    public var item: Int
    public var url: String
    public var start: Date
    public var end: Date
    public var outcome: Outcome

    public init(item: Int, url: String, start: Date, end: Date, outcome: Outcome) {
        self.item = item
        self.url = url
        self.start = start
        self.end = max(start, end)
        self.outcome = outcome
    }

    /// Seconds from start to end, to the millisecond.
    public var seconds: Double { (end.timeIntervalSince(start) * 1000).rounded() / 1000 }

    /// An instant as the lines write it: UTC, ISO 8601 with milliseconds.
    public static func timestamp(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        let milliseconds = Int(((date.timeIntervalSince1970 - Double(seconds)) * 1000).rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let millis = milliseconds < 10 ? "00\(milliseconds)" : milliseconds < 100 ? "0\(milliseconds)" : "\(milliseconds)"
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)).\(millis)Z"
    }
}
