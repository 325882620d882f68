#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Why a page could not be shown, as far as retrying is concerned. The adapter maps
/// WebKit's and GLib's errors, and the responses `serverUnavailable(of:for:appOrigins:)`
/// picks, onto these; every one of them is retried (a kiosk never gives up on its page).
public enum LoadFailure: Sendable, Equatable {
    case connectionRefused
    case hostNotFound
    case timedOut
    /// The TLS handshake failed or the certificate was not trusted.
    case tls
    /// The app's own server answered 502, 503 or 504.
    case serverUnavailable(status: Int)
    /// Any other failure to reach the page.
    case network

    /// The name in the events log.
    public var label: String {
        switch self {
        case .connectionRefused: return "connection-refused"
        case .hostNotFound: return "host-not-found"
        case .timedOut: return "timed-out"
        case .tls: return "tls"
        case .serverUnavailable(let status): return "http-\(status)"
        case .network: return "network"
        }
    }

    /// The statuses that mean "the app's server is not ready yet" (a proxy in front of a
    /// backend that is starting or restarting).
    public static let unavailableStatuses: Set<Int> = [502, 503, 504]

    /// A main-frame response of 502/503/504 from one of `appOrigins`: the app is not up
    /// yet. Nil for anything else (another site's 503 is that site's page to show).
    public static func serverUnavailable(_ response: NavigationResponse, for url: URL, appOrigins: Set<Origin>) -> LoadFailure? {
        guard response.isMainFrame, unavailableStatuses.contains(response.statusCode),
              let origin = Origin(url), appOrigins.contains(origin)
        else { return nil }
        return .serverUnavailable(status: response.statusCode)
    }
}

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

extension Duration {
    /// The duration in seconds, fractions included (for C APIs and messages that take them).
    public var inSeconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// Whole seconds, rounded up (for "trying again in N s").
    public var wholeSecondsRoundedUp: Int {
        let (seconds, attoseconds) = components
        return Int(seconds) + (attoseconds > 0 ? 1 : 0)
    }
}
