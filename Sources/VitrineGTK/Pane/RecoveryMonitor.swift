import CWebKitGTK
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

/// Crash and hang recovery, error pages, TLS errors.
///
/// A dead web process comes back by itself (`web-process-terminated` → reload), unless
/// `CrashLoopDetector` sees a crash loop: then the crash-loop page counts down instead of
/// a restart storm. A page whose process stops answering `HangWatchdog`'s probes is
/// terminated and so recovered the same way. Load failures (and the app's own server
/// answering 502/503/504) show Vitrine's error page while `LoadRetrier` tries again; a
/// kiosk's start page with a kept copy (`StartPageCopy`) shows the copy instead, marked
/// `page-stale`, and a copy on screen stays there while its live page is tried (WebKit
/// keeps the committed page when a provisional load fails).
@MainActor
final class RecoveryMonitor: PaneCollaborator {
    private weak var pane: WebPane?
    let signals = SignalConnections()
    private var crashes = CrashLoopDetector(options: KioskOptions())
    private var hangs: HangWatchdog?
    /// How many hang probes the page's process has answered.
    private(set) var probesAnswered = 0
    private var watchdog: Task<Void, Never>?
    /// The URL being replaced by an error page, so its load events are told apart.
    private var showingErrorPageFor: URL?
    /// The page whose certificate was refused, until a live page commits.
    private var certificateRefused: URL?
    /// Hosts whose certificate a configured authority was asked about (once each).
    private var vouchedHosts: Set<String> = []
    private let retrier = LoadRetrier()
    /// The error page was asked for: the next load to start is its own, and is not timed.
    private var errorPageStarting = false
    /// Armed while a main-frame load waits for its server's first answer (`[kiosk] load-timeout`).
    private var loadDeadline: Task<Void, Never>?
    /// This window's start page copy, when it keeps one.
    private var startPageCopy: StartPageCopy?
    /// The live page whose kept copy is on screen in its place, the copy's address, and
    /// whether this pane's retrier tries the live page (else the schedule's runner does).
    private(set) var copyOnScreen: (live: URL, address: URL, retried: Bool)?
    /// The load under way is Vitrine's own page (an error page, a copy) or failed: not kept.
    private var loadIsNotKept = false
    /// What the load under way shows (its load events say it): set as it starts.
    private(set) var shown = ContainerEvent.ShownPage.live

    func attach(to pane: WebPane) {
        self.pane = pane
        retrier.attach(to: self)
        let configuration = pane.configuration
        connect("load-failed", of: pane, gCallback(onLoadFailed))
        connect("load-failed-with-tls-errors", of: pane, gCallback(onTLSError))
        startPageCopy = StartPageCopy(configuration)
        guard configuration.recoversFromCrashes else { return }
        let options = configuration.kiosk ?? KioskOptions()
        crashes = CrashLoopDetector(options: options)
        connect("web-process-terminated", of: pane, gCallback(onWebProcessTerminated))
        // Hang detection is for unattended kiosks; an ordinary window has a person to
        // notice (and the probes would cost every window a little).
        if configuration.kiosk != nil { startWatchdog(HangWatchdog(timeout: options.unresponsiveTimeout)) }
    }

    func tearDown() {
        signals.disconnectAll()
        watchdog?.cancel()
        watchdog = nil
        disarmLoadDeadline()
        retrier.cancel()
    }

    isolated deinit {
        watchdog?.cancel()
        loadDeadline?.cancel()
    }

    // MARK: Crashes

    fileprivate func webProcessTerminated(_ reason: WebKitWebProcessTerminationReason) {
        guard let pane, let container = pane.container, !pane.isTornDown else { return }
        let why: String
        switch reason {
        case WEBKIT_WEB_PROCESS_CRASHED: why = "crashed"
        case WEBKIT_WEB_PROCESS_EXCEEDED_MEMORY_LIMIT: why = "exceeded-memory-limit"
        default: why = "terminated"
        }
        let url = showingErrorPageFor ?? pane.currentURL ?? container.configuration.startURL
        copyOnScreen = nil // it died with the process: a failure of the reload shows it again
        container.record(.native(action: .webProcessTerminated, detail: why))
        pane.messages.processDied() // every frame's token died with its process
        hangs?.reset()
        let response = crashes.processDied(at: .now)
        guard let url else { return }
        switch response {
        case .showCrashLoopPage(let countdown):
            container.record(.native(action: .crashLoop, detail: url.absoluteString))
            show(ErrorPage(kind: .crashLoop, url: url, detail: "The page's process \(why).", countdown: countdown))
        case .reload:
            container.record(.native(action: .recover, detail: url.absoluteString))
            pane.load(url)
        }
    }

    // MARK: Hangs

    private func startWatchdog(_ initial: HangWatchdog) {
        hangs = initial
        let interval = initial.interval
        watchdog = Task { @MainActor [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                guard let self else { return }
                self.tick()
            }
        }
    }

    private func tick() {
        guard let pane, !pane.isTornDown, var hangs else { return }
        let canProbe = pane.currentURL != nil && webkit_web_view_is_loading(pane.webView) == 0
        let now = ContinuousClock.now
        let step = hangs.tick(at: now, canProbe: canProbe)
        self.hangs = hangs
        switch step {
        case .wait:
            break
        case .terminate:
            pane.record(.native(action: .unresponsive, detail: pane.currentURL?.absoluteString ?? ""))
            webkit_web_view_terminate_web_process(pane.webView)
        case .sendProbe:
            probe(pane.webView, sentAt: now)
        }
    }

    /// Sends the page's process a message nothing there handles: its main thread, the one
    /// that runs the page's scripts, answers "not handled" unless it is stuck. (A script run
    /// in the page would do as well, but WebKitGTK reads its result into a JavaScript value
    /// here, which starts a JavaScript engine in this process: 3.5 MiB.)
    private func probe(_ view: UnsafeMutablePointer<WebKitWebView>, sentAt sent: ContinuousClock.Instant) {
        AsyncCallback.call({ callback, data in
            webkit_web_view_send_message_to_page(view, webkit_user_message_new(Self.probeMessage, nil), nil, callback, data)
        }, finish: { [weak self] _, result in
            var error: UnsafeMutablePointer<GError>?
            if let reply = webkit_web_view_send_message_to_page_finish(view, result, &error) { g_object_unref(gptr(reply)) }
            g_clear_error(&error)
            self?.probesAnswered += 1
            self?.hangs?.probeAnswered(sentAt: sent)
        })
    }

    /// The hang probe's message name.
    static let probeMessage = "vitrine.alive"

    // MARK: Error pages

    /// Reports a failed load and shows Vitrine's error page for it. Returns false (WebKit's
    /// own handling) for cancellations, which are not failures: a navigation the chain
    /// cancelled, a load replaced by another.
    fileprivate func loadFailed(uri: String, error: UnsafeMutablePointer<GError>?) -> Bool {
        guard let pane else { return false }
        // A video or audio file opened as the page: WebKit hands the load to its media
        // player and reports this "failure" first; the media document's load follows and
        // finishes. Nothing failed, so nothing is reported (no error page, no retry).
        if let error, error.pointee.domain == webkit_plugin_error_quark(),
           error.pointee.code == WEBKIT_PLUGIN_ERROR_WILL_HANDLE_LOAD.rawValue {
            return false
        }
        disarmLoadDeadline()
        let message = error.flatMap { string($0.pointee.message) } ?? "unknown error"
        pane.container?.stage.loadChanged(pane, event: .failed, url: URL(string: uri), error: message)
        guard let error, let url = URL(string: uri) else { return false }
        let isCancellation = (error.pointee.domain == webkit_network_error_quark() && error.pointee.code == WEBKIT_NETWORK_ERROR_CANCELLED.rawValue)
            || error.pointee.domain == webkit_policy_error_quark()
        // Anything else is a failure to reach the page: WebKit's network errors, GIO's
        // (connection refused, host not found), soup's.
        guard !isCancellation else { return false }
        loadIsNotKept = true
        var failure = Self.failure(of: error)
        // Retried after its certificate was refused, a page's load can end as a cancelled
        // operation instead of a second TLS error: until it is trusted, that failure is the
        // same refusal, and its page says so (a refused connection or a DNS failure is not).
        let refusedAgain = url == certificateRefused && failure == .network
        if refusedAgain { failure = .tls }
        pane.record(.native(action: .loadFailure, detail: failure.label))
        guard pane.configuration.showsErrorPages else { return false }
        if refusedAgain {
            retryCertificateLater(url)
        } else {
            retryLater(.network, url, detail: message, because: failure)
        }
        return true
    }

    /// The app's own server answered 502/503/504 (the navigation adapter cancelled the
    /// response): the error page, and a later attempt.
    func serverUnavailable(_ url: URL, _ failure: LoadFailure) {
        guard let pane, !pane.isTornDown else { return }
        loadIsNotKept = true
        pane.record(.native(action: .loadFailure, detail: failure.label))
        guard pane.configuration.showsErrorPages else { return }
        retryLater(.network, url, detail: "The server answered \(failure.label).", because: failure)
    }

    /// A main-frame load started (`PageEvents`, before its event is told): what it shows
    /// is known now. In a kiosk, a live page's server has `load-timeout` to begin answering.
    func loadStarted(_ url: URL?) {
        loadDeadline?.cancel()
        let isCopy = url?.scheme?.lowercased() == PageSnapshots.scheme
        shown = errorPageStarting ? .errorPage : isCopy ? .snapshot : .live
        loadIsNotKept = shown != .live
        errorPageStarting = false
        guard let pane, let timeout = pane.configuration.kiosk?.loadTimeout, let url, shown == .live else { return }
        loadDeadline = Task { @MainActor [weak self] in
            try? await Task.sleep(for: timeout)
            guard !Task.isCancelled, let self, let pane = self.pane, !pane.isTornDown else { return }
            self.loadDeadline = nil
            pane.record(.native(action: .loadFailure, detail: LoadFailure.timedOut.label))
            guard pane.configuration.showsErrorPages else { return webkit_web_view_stop_loading(pane.webView) }
            // The error page's or the copy's load replaces the waiting one (whose cancellation
            // is no failure); a copy on screen stays, so the waiting load is stopped.
            self.retryLater(.network, url, detail: "No answer within \(timeout.wholeSecondsRoundedUp) s.", because: .timedOut,
                            stoppingWaitingLoad: true)
        }
    }

    /// The server answered (`PageEvents`): a page other than the copy replaced it.
    func loadCommitted() {
        disarmLoadDeadline()
        // A live page committed: its server answered over a connection WebKit trusted.
        if shown == .live { certificateRefused = nil }
        if let copy = copyOnScreen, pane?.currentURL != copy.address { copyOnScreen = nil }
    }

    /// No load is waiting for its server's first answer any more.
    private func disarmLoadDeadline() {
        loadDeadline?.cancel()
        loadDeadline = nil
    }

    /// A load finished (`PageEvents`): the page being retried may be back.
    func loadFinished() {
        disarmLoadDeadline()
        retrier.loadFinished()
        keepStartPage()
    }

    /// GLib's network monitor reports the network available (`NetworkWatch`).
    func networkAvailable() {
        retrier.networkAvailable()
    }

    /// Shows the error page of `kind` for `url`, counting down to the retrier's next attempt.
    /// A copy of the page stands in for it instead (`copyInstead`), or stays on screen.
    private func retryLater(_ kind: ErrorPage.Kind, _ url: URL, detail: String, because failure: LoadFailure,
                            stoppingWaitingLoad: Bool = false) {
        disarmLoadDeadline() // the error page's own load is not timed
        if kind == .network, keepCopy(for: url, because: failure, stoppingWaitingLoad: stoppingWaitingLoad) { return }
        if kind == .network, let copy = showCopyInstead(of: url, because: failure) {
            retrier.failed(url, because: .failed(failure), standIn: copy.address)
            pane?.record(.native(action: .pageStale, detail: copy.live.absoluteString))
            return
        }
        let delay = retrier.failed(url, because: .failed(failure))
        show(ErrorPage(kind: kind, url: url, detail: detail, countdown: delay.wholeSecondsRoundedUp))
    }

    // MARK: Kept copies

    /// Shows `live`'s kept copy in its place (`PageSnapshotKeeper`): the copy's address,
    /// or nil when there is none (or it cannot be read or shown). `retried`: this pane's
    /// retrier tries the live page meanwhile; else the caller (the schedule's runner)
    /// does, and the retrier forgets it.
    func showCopy(of live: URL, retried: Bool) -> URL? {
        guard let pane, let container = pane.container, !pane.isTornDown,
              container.configuration.refusal(ofLoad: live) == nil,
              let address = container.snapshots.show(live, in: pane) else { return nil }
        copyOnScreen = (live, address, retried)
        showingErrorPageFor = live
        if !retried { retrier.forget() }
        return address
    }

    /// A load of `url` failed while its copy is on screen: the copy stays (WebKit keeps
    /// the committed page), and the live page is tried again.
    private func keepCopy(for url: URL, because failure: LoadFailure, stoppingWaitingLoad: Bool) -> Bool {
        guard let pane, let copy = copyOnScreen, url.isSamePage(as: copy.live) else { return false }
        if stoppingWaitingLoad { webkit_web_view_stop_loading(pane.webView) }
        if copy.retried { retrier.failed(url, because: .failed(failure), standIn: copy.address) }
        return true
    }

    /// Shows the start page's copy in `url`'s place, when it may stand in for it (the
    /// start page, not a TLS failure) and can be read: the start page and the copy's address.
    private func showCopyInstead(of url: URL, because failure: LoadFailure) -> (live: URL, address: URL)? {
        guard let copy = startPageCopy, copy.standsIn(for: url, because: failure),
              let address = showCopy(of: copy.startURL, retried: true) else { return nil }
        return (copy.startURL, address)
    }

    /// A load finished: the kiosk's start page, loaded for real, is kept (`SnapshotPolicy`).
    private func keepStartPage() {
        guard !loadIsNotKept, let copy = startPageCopy, let pane, !pane.isTornDown, let container = pane.container,
              let url = pane.currentURL, copy.keeps(url) else { return }
        container.snapshots.pageShown(copy.startURL, in: pane, isMedia: false)
    }

    /// What kind of failure a `load-failed` GError is (for the events log).
    private static func failure(of error: UnsafeMutablePointer<GError>) -> LoadFailure {
        let domain = error.pointee.domain, code = error.pointee.code
        if domain == g_io_error_quark() {
            if code == G_IO_ERROR_CONNECTION_REFUSED.rawValue { return .connectionRefused }
            if code == G_IO_ERROR_TIMED_OUT.rawValue { return .timedOut }
            if code == G_IO_ERROR_HOST_NOT_FOUND.rawValue { return .hostNotFound }
        }
        if domain == g_resolver_error_quark() { return .hostNotFound }
        if domain == g_tls_error_quark() { return .tls }
        return .network
    }

    /// `load-failed-with-tls-errors`: never proceeds (a trusted certificate is allowed
    /// up front, see `TLSExceptions`); shows the TLS error page. A certificate that a
    /// configured authority vouches for (`TrustAnchors`) is allowed and loaded again, once.
    fileprivate func tlsFailed(uri: String, certificate: UnsafeMutablePointer<GTlsCertificate>?) -> Bool {
        guard let pane, let url = URL(string: uri) else { return false }
        if let certificate, let host = url.host?.lowercased(), vouchedHosts.insert(host).inserted,
           TrustAnchors.vouch(for: certificate, host: host, port: url.port ?? (url.scheme == "https" ? 443 : 80)) {
            pane.record(.native(action: .caTrusted, detail: host))
            webkit_web_view_load_uri(pane.webView, uri)
            return true
        }
        loadIsNotKept = true
        certificateRefused = url
        pane.record(.load(event: .tlsError, url: uri, error: "untrusted certificate", shown: shown))
        pane.record(.native(action: .loadFailure, detail: LoadFailure.tls.label))
        guard pane.configuration.showsErrorPages else { return false }
        retryCertificateLater(url)
        return true
    }

    /// The TLS error page for `url`, naming its host, until the retrier's next attempt.
    private func retryCertificateLater(_ url: URL) {
        retryLater(.tls, url, detail: url.host.map { "Host: \($0)" } ?? url.absoluteString, because: .tls)
    }

    private func show(_ page: ErrorPage) {
        guard let pane else { return }
        showingErrorPageFor = page.url
        errorPageStarting = true
        pane.record(.native(action: .errorPage, detail: "\(page.kind.rawValue) \(page.url.absoluteString)"))
        webkit_web_view_load_alternate_html(pane.webView, page.html(), page.url.absoluteString, nil)
    }
}

extension RecoveryMonitor: LoadRetryTarget {
    /// The page on screen is still the one retried, or the copy standing in for it.
    func isStillRetrying(_ url: URL, standIn: URL?) -> Bool {
        guard let pane, !pane.isTornDown, let current = pane.currentURL else { return false }
        return current == url || current == standIn
    }

    func loadAgain(_ url: URL) {
        pane?.load(url)
    }

    func record(_ event: ContainerEvent) {
        pane?.record(event)
    }
}

/// `web-process-terminated`: `void (*)(WebKitWebView*, WebKitWebProcessTerminationReason, gpointer)`.
private let onWebProcessTerminated: @convention(c) (OpaquePointer?, WebKitWebProcessTerminationReason, gpointer?) -> Void = {
    _, reason, data in
    onMainLoop((reason, data)) { reason, data in
        SignalContext.owner(data, as: RecoveryMonitor.self)?.webProcessTerminated(reason)
    }
}

/// `load-failed`: `gboolean (*)(WebKitWebView*, WebKitLoadEvent, gchar*, GError*, gpointer)`.
/// TRUE when Vitrine showed its own error page instead of WebKit's.
private let onLoadFailed: @convention(c) (OpaquePointer?, WebKitLoadEvent, UnsafeMutablePointer<gchar>?, UnsafeMutablePointer<GError>?, gpointer?) -> gboolean = {
    _, _, uri, error, data in
    let failing = uri.map { String(cString: $0) } ?? ""
    return onMainLoop((error, data)) { error, data in
        SignalContext.owner(data, as: RecoveryMonitor.self)?.loadFailed(uri: failing, error: error) ?? false
    } ? 1 : 0
}

/// `load-failed-with-tls-errors`: `gboolean (*)(WebKitWebView*, gchar*, GTlsCertificate*, GTlsCertificateFlags, gpointer)`.
/// TRUE when Vitrine showed its error page; either way the load stays failed (WebKit
/// proceeds only with a certificate allowed up front).
private let onTLSError: @convention(c) (OpaquePointer?, UnsafeMutablePointer<gchar>?, UnsafeMutablePointer<GTlsCertificate>?, GTlsCertificateFlags, gpointer?) -> gboolean = {
    _, uri, certificate, _, data in
    guard let uri else { return 0 }
    let failing = String(cString: uri)
    return onMainLoop((certificate, data)) { certificate, data in
        SignalContext.owner(data, as: RecoveryMonitor.self)?.tlsFailed(uri: failing, certificate: certificate) ?? false
    } ? 1 : 0
}
