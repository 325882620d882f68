import CWebKitGTK
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

/// WebDriver through WebKitWebDriver (`--automation`): the process's web context allows
/// automation; when the driver starts a session, the session is named after the app (the
/// driver matches `browserName` and `browserVersion` against it) and each of its
/// `create-web-view` requests gets one of the app's own views — made with
/// `is-controlled-by-automation`, going through the app's chain, strategies and origin
/// rules like any other.
///
/// Owns its signal connections (the context's and each session's), disconnected when it
/// goes; a request that finds it gone gets no view (WebKit reports the failure to the driver).
@MainActor
final class AutomationHost {
    private let signals = SignalConnections()
    private let name: String
    private let version: String
    /// A view for the session: the app's first window's, then a new window of the app each time.
    private let makeView: @MainActor () -> UnsafeMutablePointer<WebKitWebView>?

    init(context: UnsafeMutablePointer<WebKitWebContext>, name: String, version: String,
         makeView: @escaping @MainActor () -> UnsafeMutablePointer<WebKitWebView>?) {
        self.name = name
        self.version = version
        self.makeView = makeView
        signals.connect(gptr(context), "automation-started", context: SignalContext(owner: self), handler: gCallback(onAutomationStarted))
    }

    fileprivate func started(_ session: gpointer) {
        let info = webkit_application_info_new()
        webkit_application_info_set_name(info, name)
        let parts = version.split(separator: ".").map { guint64($0) ?? 0 } + [0, 0, 0]
        webkit_application_info_set_version(info, parts[0], parts[1], parts[2])
        webkit_automation_session_set_application_info(session.assumingMemoryBound(to: WebKitAutomationSession.self), info)
        webkit_application_info_unref(info)
        signals.connect(session, "create-web-view", context: SignalContext(owner: self), handler: gCallback(onCreateWebView))
    }

    fileprivate func createWebView() -> UnsafeMutablePointer<WebKitWebView>? {
        makeView()
    }
}

/// `automation-started`: `void (*)(WebKitWebContext*, WebKitAutomationSession*, gpointer)`.
private let onAutomationStarted: @convention(c) (gpointer?, gpointer?, gpointer?) -> Void = { _, session, data in
    guard let session else { return }
    onMainLoop((session, data)) { session, data in SignalContext.owner(data, as: AutomationHost.self)?.started(session) }
}

/// `create-web-view`: `WebKitWebView* (*)(WebKitAutomationSession*, gpointer)`, the view
/// transfer none (its window owns it).
private let onCreateWebView: @convention(c) (gpointer?, gpointer?) -> UnsafeMutablePointer<WebKitWebView>? = { _, data in
    // An address crosses into the main actor's isolation, the pointer does not (not Sendable).
    let address = onMainLoop(data) { data in
        SignalContext.owner(data, as: AutomationHost.self)?.createWebView().map { Int(bitPattern: $0) } ?? 0
    }
    return UnsafeMutablePointer(bitPattern: address)
}
