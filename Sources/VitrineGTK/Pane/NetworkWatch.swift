import CWebKitGTK
import Vitrine

/// GLib's network monitor (`g_network_monitor_get_default()`): when it reports the network
/// available, a page waiting for its next attempt behind the error page is tried at once
/// rather than when its backoff ends (`RecoveryMonitor` → `LoadRetrier`). Connected only
/// where error pages (and so retries) are on.
@MainActor
final class NetworkWatch: PaneCollaborator {
    private weak var pane: WebPane?
    let signals = SignalConnections()

    func attach(to pane: WebPane) {
        self.pane = pane
        guard pane.configuration.showsErrorPages, let monitor = g_network_monitor_get_default() else { return }
        signals.connect(gptr(monitor), "network-changed", context: SignalContext(owner: self), handler: gCallback(onNetworkChanged))
    }

    fileprivate func networkChanged(available: Bool) {
        guard available, let pane, !pane.isTornDown else { return }
        pane.recovery.networkAvailable()
    }
}

/// `network-changed`: `void (*)(GNetworkMonitor*, gboolean available, gpointer)`.
private let onNetworkChanged: @convention(c) (OpaquePointer?, gboolean, gpointer?) -> Void = { _, available, data in
    onMainLoop((available, data)) { available, data in
        SignalContext.owner(data, as: NetworkWatch.self)?.networkChanged(available: available != 0)
    }
}
