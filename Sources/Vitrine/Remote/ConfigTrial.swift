#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A pushed configuration on probation: kept once its start page loads with a 2xx/3xx
/// status (wherever it redirects to: the new container's first finished page) and, when
/// its playlist has bundles, each of them has synced; rolled back if the page answers
/// 4xx/5xx, a bundle fails to sync, the page falls into a crash loop, or nothing was
/// settled when the trial's time is up.
///
/// Only a page the chain let through counts: a failed load ends in a `finished` too, and
/// Vitrine's error page (shown without a navigation decision) carries the failed URL. A
/// server's error page loads like any other, so the status decides, not the `finished`.
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
    /// How many distinct playlist bundles must report a good sync before the push is kept.
    public let bundles: Int
    /// Whether the chain allowed a navigation that has not failed yet.
    private var loading = false
    /// Whether a page the chain allowed finished with a good status.
    private var pageLoaded = false
    /// Good bundle syncs seen. Counted, not matched by URL: event URLs may be redacted.
    private var bundlesSynced = 0
    /// The status of the last refused answer (the app's server's 502/503/504, retried), for
    /// the timed-out verdict.
    private var lastRefusedStatus: Int?

    public init(startURL: URL?, timeout: Duration, bundles: Int = 0) {
        self.startURL = startURL
        self.timeout = timeout
        self.bundles = bundles
    }

    /// The trial of `pushed`: its start page, and each distinct bundle of its playlist.
    public init(of pushed: Configuration, timeout: Duration) {
        var sources: [BundleSource] = []
        for source in pushed.schedule.playlist.compactMap(\.bundle) where !sources.contains(source) { sources.append(source) }
        self.init(startURL: pushed.startURL, timeout: timeout, bundles: sources.count)
    }

    /// The verdict `event` settles, if any.
    public mutating func observe(_ event: ContainerEvent) -> Verdict? {
        switch event {
        case .navigation(_, _, .allow, _, _, .request):
            loading = true
        case .load(.failed, _, _, _, _), .load(.tlsError, _, _, _, _):
            loading = false
        case let .load(.finished, url, _, status, _):
            guard loading else { return nil }
            if let status, !(200..<400).contains(status) {
                return .rollBack(reason: "the new start page answered HTTP \(status) (\(url))")
            }
            pageLoaded = true
            return settledByBundles
        case let .native(action: .loadFailure, detail):
            if case .serverUnavailable(let status)? = LoadFailure(label: detail) { lastRefusedStatus = status }
        case .native(action: .crashLoop, let detail):
            return .rollBack(reason: "the new configuration's page crashed in a loop (\(detail))")
        case .bundleSync(let report):
            guard report.outcome != .failed else {
                return .rollBack(reason: "the playlist bundle \(report.url) did not sync (\(report.reason ?? "failed"))")
            }
            bundlesSynced += 1
            return pageLoaded ? settledByBundles : nil
        default:
            break
        }
        return nil
    }

    private var settledByBundles: Verdict? {
        bundlesSynced >= bundles ? .keep : nil
    }

    /// The verdict when the time is up without one.
    public var timedOutVerdict: Verdict {
        if pageLoaded {
            return .rollBack(reason: "\(bundlesSynced) of the \(bundles) playlist bundles synced within \(timeout.inSeconds) s")
        }
        let answered = lastRefusedStatus.map { " answered HTTP \($0) and" } ?? ""
        return .rollBack(reason: "the new start page \(startURL.map { Redaction.url($0.absoluteString) } ?? "(none)")\(answered) did not load within \(timeout.inSeconds) s")
    }
}
