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

    /// The failure an events line's `label` names (a `load-failure` line's detail), or nil.
    public init?(label: String) {
        if label.hasPrefix("http-"), let status = Int(label.dropFirst(5)) {
            self = .serverUnavailable(status: status)
            return
        }
        let plain: [LoadFailure] = [.connectionRefused, .hostNotFound, .timedOut, .tls, .network]
        guard let failure = plain.first(where: { $0.label == label }) else { return nil }
        self = failure
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
