#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A pushed configuration on probation: kept once its start page loads (wherever it
/// redirects to: the new container's first finished page), rolled back if the page falls
/// into a crash loop or has not loaded when the trial's time is up.
///
/// Only a page the chain let through counts: a failed load ends in a `finished` too, and
/// Vitrine's error page (shown without a navigation decision) carries the failed URL.
public struct ConfigTrial: Sendable, Equatable {
    public enum Verdict: Sendable, Equatable {
        case keep
        case rollBack(reason: String)
    }

    /// How a rolled-back push's reply error begins (`vitrine fleet push` tells a trial that
    /// failed from a push that was refused by it).
    public static let rolledBackPrefix = "rolled back: "

    public let startURL: URL?
    public let timeout: Duration
    /// Whether the chain allowed a navigation that has not failed yet.
    private var loading = false

    public init(startURL: URL?, timeout: Duration) {
        self.startURL = startURL
        self.timeout = timeout
    }

    /// The verdict `event` settles, if any.
    public mutating func observe(_ event: ContainerEvent) -> Verdict? {
        switch event {
        case .navigation(_, _, .allow, _, _, .request):
            loading = true
        case .load(.failed, _, _), .load(.tlsError, _, _):
            loading = false
        case .load(.finished, _, _):
            return loading ? .keep : nil
        case .native(action: .crashLoop, let detail):
            return .rollBack(reason: "the new configuration's page crashed in a loop (\(detail))")
        default:
            break
        }
        return nil
    }

    /// The verdict when the time is up without one.
    public var timedOutVerdict: Verdict {
        .rollBack(reason: "the new start page \(startURL.map { Redaction.url($0.absoluteString) } ?? "(none)") did not load within \(timeout.inSeconds) s")
    }

}
