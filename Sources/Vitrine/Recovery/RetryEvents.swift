#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Why a page is tried again, as its `retry` line names it.
public enum RetryReason: Sendable, Equatable {
    /// Its load failed (the window's page: its error page or its kept copy shows meanwhile).
    case failed(LoadFailure)
    /// A playlist item's kept copy is on screen in its place (its load failure was logged
    /// as the item's own `schedule-page-failed`).
    case stale

    public var label: String {
        switch self {
        case .failed(let failure): return failure.label
        case .stale: return "stale"
        }
    }
}

/// What started an attempt now: its backoff ended, or the network came back.
public enum RetryTrigger: String, Sendable, CaseIterable {
    case backoff, network
}

/// The lines of a page tried again (`LoadRetrier`, for the window's page and for a stale
/// playlist item alike), spelled in one place so that their formats cannot drift apart:
///
/// - `retry` "N URL in S s (REASON)": failure N of URL; the next attempt is in S seconds
///   (to a tenth);
/// - `retry-load` "N URL (backoff|network)": the attempt after failure N starts, and why now;
/// - `recovered` "URL": the page loaded; the next failure starts the schedule again.
extension ContainerEvent {
    public static func retry(_ attempt: Int, of url: URL, in delay: Duration, because reason: RetryReason) -> ContainerEvent {
        .native(action: .retry, detail: "\(attempt) \(url.absoluteString) in \((delay.inSeconds * 10).rounded() / 10) s (\(reason.label))")
    }

    public static func retryLoad(_ attempt: Int, of url: URL, trigger: RetryTrigger) -> ContainerEvent {
        .native(action: .retryLoad, detail: "\(attempt) \(url.absoluteString) (\(trigger.rawValue))")
    }

    public static func recovered(_ url: URL) -> ContainerEvent {
        .native(action: .recovered, detail: url.absoluteString)
    }
}
