import CWebKitGTK
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

/// `decide-policy` and `create` → `NavigationAction` → the kiosk's rules and the chain
/// (`Configuration.decide`) → `NavigationOutcome` → WebKit. Every decision is Vitrine's: the signal is always claimed, and a decision with
/// nobody left to take it is ignored (fail closed).
@MainActor
final class NavigationAdapter: PaneCollaborator {
    private weak var pane: WebPane?
    let signals = SignalConnections()

    func attach(to pane: WebPane) {
        self.pane = pane
        connect("decide-policy", of: pane, gCallback(onDecidePolicy))
        connect("create", of: pane, gCallback(onCreate))
    }

    /// Holds the decision, runs the chain, answers WebKit once with the outcome.
    fileprivate func decidePolicy(_ decision: UnsafeMutablePointer<WebKitPolicyDecision>, type: WebKitPolicyDecisionType) {
        guard let pane, let container = pane.container, !pane.isTornDown else {
            webkit_policy_decision_ignore(decision)
            return
        }
        guard var action = NavigationAction(decision: decision, type: type) else {
            // Nothing to judge (an unparsable URL): fail closed.
            webkit_policy_decision_ignore(decision)
            container.record(.navigation(url: "", handler: "unparsable-url", policy: .cancel, navigationType: .other,
                                         target: .currentView, phase: .request))
            return
        }
        action.parentOrigin = pane.currentURL.flatMap(Origin.init)
        if action.url.scheme?.lowercased() == PageSnapshots.scheme {
            return decideSnapshot(action, decision, in: pane, container)
        }
        let pending = PendingPolicyDecision(decision)
        decide(action, in: container) { [weak self] verdict in self?.carryOut(verdict, of: action, pending: pending) }
    }

    /// A snapshot address is no page's to open: only the one Vitrine itself loads in this
    /// pane (`PageSnapshotKeeper.show`) goes through, request and response; the chain,
    /// whose rules are about live sites, never sees it.
    private func decideSnapshot(_ action: NavigationAction, _ decision: UnsafeMutablePointer<WebKitPolicyDecision>,
                                in pane: WebPane, _ container: WebContainer) {
        let allowed = PageSnapshots.admits(action, expected: pane.expectedSnapshot)
        if action.response != nil { pane.expectedSnapshot = nil }
        container.record(.navigation(url: action.url.absoluteString, handler: "page-snapshot", policy: allowed ? .allow : .cancel,
                                     navigationType: action.navigationType, target: action.target,
                                     phase: action.response == nil ? .request : .response))
        allowed ? webkit_policy_decision_use(decision) : webkit_policy_decision_ignore(decision)
    }

    /// `window.open`: WebKit asks for a new view without a policy decision. Vitrine opens
    /// no windows: the answer is always "no view", and the chain decides (and logs) whether
    /// the URL loads in this view instead.
    fileprivate func createRequested(_ navigationAction: OpaquePointer) {
        guard let container = pane?.container, let action = NavigationAction(action: navigationAction, target: .newWindow)
        else { return }
        decide(action, in: container) { [weak self] verdict in self?.carryOut(verdict, of: action, pending: nil) }
    }

    private func decide(_ action: NavigationAction, in container: WebContainer,
                        then carryOut: @escaping @MainActor (NavigationDecision) -> Void) {
        let configuration = container.configuration
        let context = NavigationContext(host: container.host, appOrigins: configuration.appOrigins)
        // The chain starts now, not after a main-loop turn.
        Task.immediate { @MainActor in carryOut(await configuration.decide(action, context: context)) }
    }

    /// Logs the verdict and carries out its outcome. With the pane or its container gone,
    /// nothing is done: `pending` ignores the navigation as it is released.
    private func carryOut(_ verdict: NavigationDecision, of action: NavigationAction, pending: PendingPolicyDecision?) {
        guard let pane, !pane.isTornDown, let container = pane.container else { return }
        container.record(.navigation(
            url: action.url.absoluteString, handler: verdict.handler, policy: verdict.policy,
            navigationType: action.navigationType, target: action.target,
            phase: action.response == nil ? .request : .response))
        if action.response == nil && action.target == .currentView { pane.pendingLoads.decided(action.url, verdict) }
        switch container.configuration.outcome(of: verdict, for: action) {
        case .answer(let policy):
            pending?.apply(policy)
        case .loadInCurrentView(let url):
            pending?.apply(.cancel)
            pane.load(url)
        case .refuseDownload:
            pending?.apply(.cancel)
            container.record(.native(action: .downloadRefused, detail: action.url.absoluteString))
        case .retryLater(let failure):
            pending?.apply(.cancel)
            pane.recovery.serverUnavailable(action.url, failure)
        }
    }
}

/// `decide-policy`: `gboolean (*)(WebKitWebView*, WebKitPolicyDecision*, WebKitPolicyDecisionType, gpointer)`.
/// Always TRUE: a FALSE would let WebKit's default handler allow the navigation.
private let onDecidePolicy: @convention(c) (OpaquePointer?, UnsafeMutablePointer<WebKitPolicyDecision>?, WebKitPolicyDecisionType, gpointer?) -> gboolean = {
    _, decision, type, data in
    guard let decision else { return 1 }
    onMainLoop((decision, type, data)) { decision, type, data in
        guard let adapter = SignalContext.owner(data, as: NavigationAdapter.self) else {
            webkit_policy_decision_ignore(decision)
            return
        }
        adapter.decidePolicy(decision, type: type)
    }
    return 1
}

/// `create` (`window.open`): `GtkWidget* (*)(WebKitWebView*, WebKitNavigationAction*, gpointer)`.
/// Always NULL: no new views.
private let onCreate: @convention(c) (OpaquePointer?, OpaquePointer?, gpointer?) -> UnsafeMutablePointer<GtkWidget>? = {
    _, action, data in
    guard let action else { return nil }
    onMainLoop((action, data)) { action, data in
        SignalContext.owner(data, as: NavigationAdapter.self)?.createRequested(action)
    }
    return nil
}
