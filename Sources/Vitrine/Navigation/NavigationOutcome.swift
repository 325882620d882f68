#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What the adapter does with the chain's verdict: where Vitrine's own rules (no browser
/// windows, no download without a folder, no `javascript:` loads) meet the handlers'
/// decision. The adapter only carries it out.
public enum NavigationOutcome: Sendable, Equatable {
    /// Answer WebKit with this policy.
    case answer(NavigationPolicy)
    /// Cancel the new window WebKit asked for and load its URL in the current view: Vitrine
    /// opens no browser windows, and that load goes through the chain again.
    case loadInCurrentView(URL)
    /// Cancel: a handler asked for a download, but the container has no download folder.
    case refuseDownload
    /// Cancel: the app's own server is not ready (502/503/504); show the error page and
    /// try again later, as for a page that could not be reached.
    case retryLater(LoadFailure)
}

extension Configuration {
    /// The outcome of the chain's `verdict` on `action`.
    public func outcome(of verdict: NavigationDecision, for action: NavigationAction) -> NavigationOutcome {
        if action.target == .newWindow && verdict.policy == .allow { return .loadInCurrentView(action.url) }
        if verdict.policy == .download && self.downloadDirectory == nil { return .refuseDownload }
        if verdict.policy == .allow, preferences.showsErrorPages, let response = action.response,
           let failure = LoadFailure.serverUnavailable(response, for: action.url, appOrigins: appOrigins) {
            return .retryLater(failure)
        }
        return .answer(verdict.policy)
    }

    /// The decision that refuses a load the program asked for (start page, remote control,
    /// an embedder's `load`) before it reaches WebKit, or nil when it may go ahead (and
    /// through the chain). A `javascript:` URL runs script in the page rather than
    /// navigating, so no navigation handler could judge it: it is refused. A kiosk loads no
    /// top-level document it would refuse from a page (`refusesTopLevelDocument(at:)`).
    public func refusal(ofLoad url: URL) -> NavigationDecision? {
        if url.scheme?.lowercased() == "javascript" { return NavigationDecision(policy: .cancel, handler: "javascript-url") }
        if refusesTopLevelDocument(at: url) { return NavigationDecision(policy: .cancel, handler: Self.kioskTopLevelHandler) }
        return nil
    }
}

