#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// When to try a failed page again: exponential backoff from `first`, doubled on each
/// failure up to `cap`, with ±`jitter` of each delay taken from an injected random source
/// (so that many kiosks booting together do not hit their server in step, and tests are
/// deterministic). A success starts the count again.
public struct RetrySchedule: Sendable {
    public let first: Duration
    public let cap: Duration
    /// The fraction of each delay that is random, both ways (0.25: ±25 %).
    public let jitter: Double
    /// The failures since the last success.
    public private(set) var attempts = 0
    private let random: @Sendable () -> Double

    /// `random` answers in 0..<1.
    public init(first: Duration = .seconds(1), cap: Duration = .seconds(60), jitter: Double = 0.25,
                random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }) {
        self.first = first
        self.cap = cap
        self.jitter = jitter
        self.random = random
    }

    /// Counts a failure and answers how long to wait before the next attempt: never more
    /// than `cap`, the first never more than `first` plus its jitter.
    public mutating func failed() -> Duration {
        attempts += 1
        var base = first
        for _ in 1..<attempts where base < cap { base = base * 2 }
        let factor = 1 + jitter * (2 * min(max(random(), 0), 1) - 1)
        return min(cap, min(base, cap) * factor)
    }

    /// The page was shown: the next failure waits `first` again.
    public mutating func succeeded() {
        attempts = 0
    }
}
