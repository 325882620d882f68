import CWebKitGTK
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

/// `decide-policy` → the navigation chain.
extension WebContainer {
    func connectViewSignals() {
        let context = { SignalContext(owner: self) }
        signals.connect(gptr(webView), "decide-policy", context: context(), handler: gCallback(onDecidePolicy))
        signals.connect(gptr(webView), "load-changed", context: context(), handler: gCallback(onLoadChanged))
        signals.connect(gptr(webView), "load-failed", context: context(), handler: gCallback(onLoadFailed))
        signals.connect(gptr(webView), "notify::title", context: context(), handler: gCallback(onTitleChanged))
        signals.connect(gptr(webView), "close", context: context(), handler: gCallback(onViewClose))
        if configuration.disablesZoom {
            signals.connect(gptr(webView), "notify::zoom-level", context: context(), handler: gCallback(onZoomChanged))
        }
    }

    /// Holds the decision, runs the chain, answers WebKit once with the chain's policy.
    /// Returns true: every decision is taken by Vitrine.
    func decidePolicy(_ decision: UnsafeMutablePointer<WebKitPolicyDecision>, type: WebKitPolicyDecisionType) -> Bool {
        guard let action = NavigationAction(decision: decision, type: type) else {
            // Nothing to judge (an unparsable URL): fail closed.
            webkit_policy_decision_ignore(decision)
            record(.navigation(url: "", handler: "unparsable-url", policy: .cancel, navigationType: "other",
                               target: "currentView", phase: "request"))
            return true
        }
        let pending = PendingPolicyDecision(decision)
        let chain = configuration.navigationChain
        let context = NavigationContext(host: self, appOrigins: configuration.appOrigins)
        Task { @MainActor [weak self] in
            let verdict = await chain.decide(action, context: context)
            self?.apply(verdict, to: action, pending: pending)
        }
        return true
    }

    private func apply(_ verdict: NavigationDecision, to action: NavigationAction, pending: PendingPolicyDecision) {
        guard !isTornDown else { return } // `pending` cancels as it is released
        record(.navigation(
            url: action.url.absoluteString, handler: verdict.handler, policy: verdict.policy,
            navigationType: action.navigationType.rawValue, target: action.target.rawValue,
            phase: action.response == nil ? "request" : "response"))
        if action.target == .newWindow && verdict.policy == .allow {
            // Vitrine opens no browser windows: an allowed new window loads here, and that
            // load goes through the chain again as a navigation of this view.
            pending.apply(.cancel)
            load(action.url)
        } else {
            pending.apply(verdict.policy)
        }
    }
}

/// `decide-policy`: `gboolean (*)(WebKitWebView*, WebKitPolicyDecision*, WebKitPolicyDecisionType, gpointer)`.
private let onDecidePolicy: @convention(c) (OpaquePointer?, UnsafeMutablePointer<WebKitPolicyDecision>?, WebKitPolicyDecisionType, gpointer?) -> gboolean = {
    _, decision, type, data in
    guard let decision, let container = WebContainer.from(data) else { return 0 }
    return MainActor.assumeIsolated { container.decidePolicy(decision, type: type) } ? 1 : 0
}

/// `close` (the page called `window.close()`): `void (*)(WebKitWebView*, gpointer)`.
private let onViewClose: @convention(c) (OpaquePointer?, gpointer?) -> Void = { _, data in
    guard let container = WebContainer.from(data) else { return }
    MainActor.assumeIsolated { container.close() }
}

/// `notify::zoom-level`: keeps the zoom at 100 % when zoom is disabled (keyboard and
/// Ctrl+scroll zoom change this property; the viewport script covers pinch zoom).
private let onZoomChanged: @convention(c) (UnsafeMutablePointer<WebKitWebView>?, OpaquePointer?, gpointer?) -> Void = { view, _, data in
    guard let view, WebContainer.from(data) != nil else { return }
    if webkit_web_view_get_zoom_level(view) != 1.0 { webkit_web_view_set_zoom_level(view, 1.0) }
}
