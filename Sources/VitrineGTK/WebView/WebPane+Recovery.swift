import CWebKitGTK
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

/// What a pane remembers to recover: recent crashes, the hang watchdog.
struct RecoveryState {
    var crashTimes: [ContinuousClock.Instant] = []
    var watchdog: Task<Void, Never>?
    /// When the oldest unanswered watchdog probe was sent.
    var probeSentAt: ContinuousClock.Instant?
    /// The URL being replaced by an error page, so its load events are told apart.
    var showingErrorPageFor: URL?
}

/// Crash and hang recovery, error pages, TLS errors.
///
/// A dead web process comes back by itself (`web-process-terminated` → reload); too many
/// deaths within a window show the crash-loop page with a countdown instead of a restart
/// storm. A page whose process stops answering the watchdog's probes is terminated and so
/// recovered the same way. Load failures show Vitrine's error page, which retries by itself.
extension WebPane {
    private var options: KioskOptions { container?.configuration.kiosk ?? KioskOptions() }

    func connectRecoverySignals(_ configuration: Configuration) {
        let context = { SignalContext(owner: self) }
        signals.connect(gptr(webView), "load-failed-with-tls-errors", context: context(), handler: gCallback(onTLSError))
        guard configuration.recoversFromCrashes else { return }
        signals.connect(gptr(webView), "web-process-terminated", context: context(), handler: gCallback(onWebProcessTerminated))
        // Hang detection is for unattended kiosks; an ordinary window has a person to
        // notice (and the probes would cost every window a little).
        if configuration.kiosk != nil { startWatchdog() }
    }

    // MARK: Crashes

    func webProcessTerminated(_ reason: WebKitWebProcessTerminationReason) {
        guard let container, !isTornDown else { return }
        let why: String
        switch reason {
        case WEBKIT_WEB_PROCESS_CRASHED: why = "crashed"
        case WEBKIT_WEB_PROCESS_EXCEEDED_MEMORY_LIMIT: why = "exceeded-memory-limit"
        default: why = "terminated"
        }
        let url = recovery.showingErrorPageFor ?? currentURL ?? container.configuration.startURL
        container.record(.native(action: "web-process-terminated", detail: why))
        frames.removeAll() // every frame's token died with its process
        recovery.probeSentAt = nil
        let now = ContinuousClock.now
        recovery.crashTimes = recovery.crashTimes.filter { now - $0 < options.crashLoopWindow } + [now]
        guard let url else { return }
        if recovery.crashTimes.count > options.crashLoopLimit {
            container.record(.native(action: "crash-loop", detail: url.absoluteString))
            recovery.crashTimes.removeAll()
            show(ErrorPage(kind: .crashLoop, url: url, detail: "The page's process \(why).",
                           countdown: Int(options.crashLoopBackoff.components.seconds)))
        } else {
            container.record(.native(action: "recover", detail: url.absoluteString))
            load(url)
        }
    }

    // MARK: Hangs

    /// Probes the page's process with a trivial script; a probe left unanswered for
    /// `unresponsiveTimeout` means the process hangs: it is terminated, and recovered.
    private func startWatchdog() {
        let timeout = options.unresponsiveTimeout
        recovery.watchdog = Task { @MainActor [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: timeout / 4)
                guard let self, !self.isTornDown else { return }
                self.probe(timeout: timeout)
            }
        }
    }

    private func probe(timeout: Duration) {
        if let sent = recovery.probeSentAt {
            guard ContinuousClock.now - sent >= timeout else { return }
            recovery.probeSentAt = nil
            container?.record(.native(action: "unresponsive", detail: currentURL?.absoluteString ?? ""))
            webkit_web_view_terminate_web_process(webView)
            return
        }
        guard currentURL != nil, webkit_web_view_is_loading(webView) == 0 else { return }
        let sent = ContinuousClock.now
        recovery.probeSentAt = sent
        let view = webView
        AsyncCallback.call({ callback, data in
            webkit_web_view_evaluate_javascript(view, "0", -1, ScriptBridge.worldName, nil, nil, callback, data)
        }, finish: { [weak self] _, result in
            var error: UnsafeMutablePointer<GError>?
            if let value = webkit_web_view_evaluate_javascript_finish(view, result, &error) { g_object_unref(gptr(value)) }
            g_clear_error(&error)
            // Only the probe still awaited counts; a late answer from before a restart does not.
            guard let self, self.recovery.probeSentAt == sent else { return }
            self.recovery.probeSentAt = nil
        })
    }

    // MARK: Error pages

    /// Shows Vitrine's error page for a failed load. Returns false (WebKit's own handling)
    /// for cancellations, which are not failures: a navigation the chain cancelled, a
    /// load replaced by another.
    func loadFailed(uri: String, error: UnsafeMutablePointer<GError>?) -> Bool {
        let message = error.flatMap { string($0.pointee.message) } ?? "unknown error"
        container?.paneLoadChanged(self, event: "failed", url: URL(string: uri), error: message)
        guard let container, container.configuration.showsErrorPages, let error, let url = URL(string: uri) else { return false }
        let isCancellation = (error.pointee.domain == webkit_network_error_quark() && error.pointee.code == WEBKIT_NETWORK_ERROR_CANCELLED.rawValue)
            || error.pointee.domain == webkit_policy_error_quark()
        // Anything else is a failure to reach the page: WebKit's network errors, GIO's
        // (connection refused, host not found), soup's.
        guard !isCancellation else { return false }
        show(ErrorPage(kind: .network, url: url, detail: message, countdown: 0))
        return true
    }

    /// `load-failed-with-tls-errors`: never proceeds (a trusted certificate is allowed
    /// up front, see `TLSExceptions`); shows the TLS error page.
    func tlsFailed(uri: String) -> Bool {
        guard let container, let url = URL(string: uri) else { return false }
        container.record(.load(event: "tls-error", url: uri, error: "untrusted certificate"))
        guard container.configuration.showsErrorPages else { return false }
        show(ErrorPage(kind: .tls, url: url, detail: url.host.map { "Host: \($0)" } ?? uri, countdown: 60))
        return true
    }

    private func show(_ page: ErrorPage) {
        recovery.showingErrorPageFor = page.url
        container?.record(.native(action: "error-page", detail: "\(page.kind.rawValue) \(page.url.absoluteString)"))
        webkit_web_view_load_alternate_html(webView, page.html(), page.url.absoluteString, nil)
    }
}

/// `web-process-terminated`: `void (*)(WebKitWebView*, WebKitWebProcessTerminationReason, gpointer)`.
private let onWebProcessTerminated: @convention(c) (OpaquePointer?, WebKitWebProcessTerminationReason, gpointer?) -> Void = {
    _, reason, data in
    guard let pane = WebPane.from(data) else { return }
    MainActor.assumeIsolated { pane.webProcessTerminated(reason) }
}

/// `load-failed-with-tls-errors`: `gboolean (*)(WebKitWebView*, gchar*, GTlsCertificate*, GTlsCertificateFlags, gpointer)`.
private let onTLSError: @convention(c) (OpaquePointer?, UnsafeMutablePointer<gchar>?, OpaquePointer?, GTlsCertificateFlags, gpointer?) -> gboolean = {
    _, uri, _, _, data in
    guard let pane = WebPane.from(data), let uri else { return 0 }
    let failing = String(cString: uri)
    return MainActor.assumeIsolated { pane.tlsFailed(uri: failing) } ? 1 : 0
}
