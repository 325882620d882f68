import CWebKitGTK
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

/// `decide-policy` → the navigation chain; load events and the title → the container.
extension WebPane {
    func connectSignals(_ configuration: Configuration) {
        let context = { SignalContext(owner: self) }
        signals.connect(gptr(webView), "decide-policy", context: context(), handler: gCallback(onDecidePolicy))
        signals.connect(gptr(webView), "load-changed", context: context(), handler: gCallback(onLoadChanged))
        signals.connect(gptr(webView), "load-failed", context: context(), handler: gCallback(onLoadFailed))
        signals.connect(gptr(webView), "notify::title", context: context(), handler: gCallback(onTitleChanged))
        signals.connect(gptr(webView), "close", context: context(), handler: gCallback(onViewClose))
        signals.connect(gptr(webView), "create", context: context(), handler: gCallback(onCreate))
        if configuration.disablesZoom {
            signals.connect(gptr(webView), "notify::zoom-level", context: context(), handler: gCallback(onZoomChanged))
        }
        connectRecoverySignals(configuration)
        connectPermissionSignals()
    }

    /// Holds the decision, runs the chain, answers WebKit once with the chain's policy.
    /// Returns true: every decision is taken by Vitrine.
    func decidePolicy(_ decision: UnsafeMutablePointer<WebKitPolicyDecision>, type: WebKitPolicyDecisionType) -> Bool {
        guard let container else { return false }
        guard let action = NavigationAction(decision: decision, type: type) else {
            // Nothing to judge (an unparsable URL): fail closed.
            webkit_policy_decision_ignore(decision)
            container.record(.navigation(url: "", handler: "unparsable-url", policy: .cancel, navigationType: "other",
                                         target: "currentView", phase: "request"))
            return true
        }
        let pending = PendingPolicyDecision(decision)
        decide(action) { [weak self] verdict in self?.apply(verdict, to: action, pending: pending) }
        return true
    }

    /// `window.open`: WebKit asks for a new view without a policy decision. Vitrine opens
    /// no windows: the answer is always "no view", and the chain decides (and logs) whether
    /// the URL loads in this view instead.
    func createRequested(_ navigationAction: OpaquePointer) {
        guard let action = NavigationAction(action: navigationAction, target: .newWindow) else { return }
        decide(action) { [weak self] verdict in self?.apply(verdict, to: action, pending: nil) }
    }

    private func decide(_ action: NavigationAction, then apply: @escaping @MainActor (NavigationDecision) -> Void) {
        guard let container else { return }
        let chain = container.configuration.navigationChain
        let context = NavigationContext(host: container, appOrigins: container.configuration.appOrigins)
        // The chain starts now, not after a main-loop turn.
        Task.immediate { @MainActor in apply(await chain.decide(action, context: context)) }
    }

    /// Records the verdict and answers WebKit (when it asked for a decision).
    private func apply(_ verdict: NavigationDecision, to action: NavigationAction, pending: PendingPolicyDecision?) {
        guard !isTornDown, let container else { return } // `pending` cancels as it is released
        container.record(.navigation(
            url: action.url.absoluteString, handler: verdict.handler, policy: verdict.policy,
            navigationType: action.navigationType.rawValue, target: action.target.rawValue,
            phase: action.response == nil ? "request" : "response"))
        if action.target == .newWindow && verdict.policy == .allow {
            // Vitrine opens no browser windows: an allowed new window loads here, and that
            // load goes through the chain again as a navigation of this view.
            pending?.apply(.cancel)
            load(action.url)
        } else if verdict.policy == .download && container.configuration.downloadDirectory == nil {
            // A handler may ask for a download; without a download folder it is refused.
            pending?.apply(.cancel)
            container.record(.native(action: "download-refused", detail: action.url.absoluteString))
        } else {
            pending?.apply(verdict.policy)
        }
    }

    func loadChanged(_ event: WebKitLoadEvent) {
        let name: String
        switch event {
        case WEBKIT_LOAD_STARTED: name = "started"
        case WEBKIT_LOAD_REDIRECTED: name = "redirected"
        case WEBKIT_LOAD_COMMITTED: name = "committed"
        case WEBKIT_LOAD_FINISHED: name = "finished"
        default: return
        }
        container?.paneLoadChanged(self, event: name, url: currentURL, error: nil)
    }

    func titleChanged() {
        guard let title = string(webkit_web_view_get_title(webView)), !title.isEmpty else { return }
        container?.paneTitleChanged(self, title: title)
    }
}

/// `decide-policy`: `gboolean (*)(WebKitWebView*, WebKitPolicyDecision*, WebKitPolicyDecisionType, gpointer)`.
private let onDecidePolicy: @convention(c) (OpaquePointer?, UnsafeMutablePointer<WebKitPolicyDecision>?, WebKitPolicyDecisionType, gpointer?) -> gboolean = {
    _, decision, type, data in
    guard let decision, let pane = WebPane.from(data) else { return 0 }
    return MainActor.assumeIsolated { pane.decidePolicy(decision, type: type) } ? 1 : 0
}

/// `load-changed`: `void (*)(WebKitWebView*, WebKitLoadEvent, gpointer)`.
private let onLoadChanged: @convention(c) (OpaquePointer?, WebKitLoadEvent, gpointer?) -> Void = { _, event, data in
    guard let pane = WebPane.from(data) else { return }
    MainActor.assumeIsolated { pane.loadChanged(event) }
}

/// `load-failed`: `gboolean (*)(WebKitWebView*, WebKitLoadEvent, gchar*, GError*, gpointer)`.
/// Returns TRUE when Vitrine showed its own error page instead of WebKit's.
private let onLoadFailed: @convention(c) (OpaquePointer?, WebKitLoadEvent, UnsafeMutablePointer<gchar>?, UnsafeMutablePointer<GError>?, gpointer?) -> gboolean = {
    _, _, uri, error, data in
    guard let pane = WebPane.from(data) else { return 0 }
    let uriString = uri.map { String(cString: $0) } ?? ""
    return MainActor.assumeIsolated { pane.loadFailed(uri: uriString, error: error) } ? 1 : 0
}

/// `notify::title`: `void (*)(GObject*, GParamSpec*, gpointer)`.
private let onTitleChanged: @convention(c) (OpaquePointer?, OpaquePointer?, gpointer?) -> Void = { _, _, data in
    guard let pane = WebPane.from(data) else { return }
    MainActor.assumeIsolated { pane.titleChanged() }
}

/// `create` (`window.open`): `GtkWidget* (*)(WebKitWebView*, WebKitNavigationAction*, gpointer)`.
/// Always NULL: no new views.
private let onCreate: @convention(c) (OpaquePointer?, OpaquePointer?, gpointer?) -> UnsafeMutablePointer<GtkWidget>? = {
    _, action, data in
    guard let action, let pane = WebPane.from(data) else { return nil }
    MainActor.assumeIsolated { pane.createRequested(action) }
    return nil
}

/// `close` (the page called `window.close()`): `void (*)(WebKitWebView*, gpointer)`.
private let onViewClose: @convention(c) (OpaquePointer?, gpointer?) -> Void = { _, data in
    guard let pane = WebPane.from(data) else { return }
    MainActor.assumeIsolated { pane.container?.close() }
}

/// `notify::zoom-level`: keeps the zoom at 100 % when zoom is disabled (keyboard and
/// Ctrl+scroll zoom change this property; the viewport script covers pinch zoom).
private let onZoomChanged: @convention(c) (UnsafeMutablePointer<WebKitWebView>?, OpaquePointer?, gpointer?) -> Void = { view, _, data in
    guard let view, WebPane.from(data) != nil else { return }
    if webkit_web_view_get_zoom_level(view) != 1.0 { webkit_web_view_set_zoom_level(view, 1.0) }
}
