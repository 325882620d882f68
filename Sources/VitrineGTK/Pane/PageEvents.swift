import CWebKitGTK
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

/// What the page reports: load progress and the title go to the container (a kiosk's top
/// frame that took a document it refuses goes back); `window.close()`
/// closes it where `Configuration.mayClose(by:)` allows; the zoom stays at 100 % when zoom
/// is disabled.
@MainActor
final class PageEvents: PaneCollaborator {
    private weak var pane: WebPane?
    let signals = SignalConnections()

    func attach(to pane: WebPane) {
        self.pane = pane
        connect("load-changed", of: pane, gCallback(onLoadChanged))
        connect("notify::title", of: pane, gCallback(onTitleChanged))
        connect("close", of: pane, gCallback(onViewClose))
        if pane.configuration.disablesZoom {
            connect("notify::zoom-level", of: pane, gCallback(onZoomChanged))
        }
    }

    fileprivate func loadChanged(_ event: WebKitLoadEvent) {
        let name: ContainerEvent.LoadEvent
        switch event {
        case WEBKIT_LOAD_STARTED: name = .started
        case WEBKIT_LOAD_REDIRECTED: name = .redirected
        case WEBKIT_LOAD_COMMITTED: name = .committed
        case WEBKIT_LOAD_FINISHED: name = .finished
        default: return
        }
        guard let pane else { return }
        // Before anything reports the new page: the old page's tokens die with it.
        if event == WEBKIT_LOAD_COMMITTED { pane.messages.mainFrameCommitted() }
        // Before the event is told: the recovery knows what the new load shows.
        if event == WEBKIT_LOAD_STARTED { pane.recovery.loadStarted(pane.currentURL) }
        pane.container?.stage.loadChanged(pane, event: name, url: pane.currentURL, error: nil,
                                          status: event == WEBKIT_LOAD_FINISHED ? mainResourceStatus(of: pane) : nil)
        switch event {
        case WEBKIT_LOAD_COMMITTED:
            pane.recovery.loadCommitted()
            if let url = pane.currentURL, pane.configuration.refusesTopLevelDocument(at: url) { refuseTopLevelDocument(url) }
        case WEBKIT_LOAD_FINISHED: pane.recovery.loadFinished()
        default: break
        }
    }

    /// The HTTP status the page's main resource answered; nil without one (a file, an
    /// `app://` page, Vitrine's error page), as WebKit reports 0 then.
    private func mainResourceStatus(of pane: WebPane) -> Int? {
        guard let resource = webkit_web_view_get_main_resource(pane.webView),
              let response = webkit_web_resource_get_response(resource)
        else { return nil }
        let status = Int(webkit_uri_response_get_status_code(response))
        return status > 0 ? status : nil
    }

    /// A kiosk's top frame took a document it never shows (an `about:blank` WebKitGTK 4.1
    /// did not say was the top frame's): logged as refused, and the page before it comes
    /// back (from WebKit's page cache when it kept it), else the start page.
    private func refuseTopLevelDocument(_ url: URL) {
        guard let pane, let container = pane.container else { return }
        container.record(.navigation(url: url.absoluteString, handler: Configuration.kioskTopLevelHandler, policy: .cancel,
                                     navigationType: .other, target: .currentView, phase: .commit))
        if webkit_web_view_can_go_back(pane.webView) != 0 {
            webkit_web_view_go_back(pane.webView)
        } else if let start = container.configuration.startURL {
            pane.load(start)
        }
    }

    fileprivate func titleChanged() {
        guard let pane, let title = string(webkit_web_view_get_title(pane.webView)), !title.isEmpty else { return }
        pane.container?.stage.titleChanged(pane, title: title)
    }

    /// `window.close()`: closes the window unless the configuration says the page may not.
    fileprivate func closeRequested() {
        guard let pane, let container = pane.container else { return }
        guard pane.configuration.mayClose(by: .page) else {
            return container.record(.native(action: .blockedClose, detail: CloseRequest.page.rawValue))
        }
        container.close()
    }

    fileprivate func zoomChanged() {
        guard let view = pane?.webView else { return }
        if webkit_web_view_get_zoom_level(view) != 1.0 { webkit_web_view_set_zoom_level(view, 1.0) }
    }
}

/// `load-changed`: `void (*)(WebKitWebView*, WebKitLoadEvent, gpointer)`.
private let onLoadChanged: @convention(c) (OpaquePointer?, WebKitLoadEvent, gpointer?) -> Void = { _, event, data in
    onMainLoop((event, data)) { event, data in SignalContext.owner(data, as: PageEvents.self)?.loadChanged(event) }
}

/// `notify::title`: `void (*)(GObject*, GParamSpec*, gpointer)`.
private let onTitleChanged: @convention(c) (OpaquePointer?, OpaquePointer?, gpointer?) -> Void = { _, _, data in
    onMainLoop(data) { data in SignalContext.owner(data, as: PageEvents.self)?.titleChanged() }
}

/// `close` (the page called `window.close()`): `void (*)(WebKitWebView*, gpointer)`.
private let onViewClose: @convention(c) (OpaquePointer?, gpointer?) -> Void = { _, data in
    onMainLoop(data) { data in SignalContext.owner(data, as: PageEvents.self)?.closeRequested() }
}

/// `notify::zoom-level`: keyboard and Ctrl+scroll zoom change this property; the viewport
/// script covers pinch zoom.
private let onZoomChanged: @convention(c) (OpaquePointer?, OpaquePointer?, gpointer?) -> Void = { _, _, data in
    onMainLoop(data) { data in SignalContext.owner(data, as: PageEvents.self)?.zoomChanged() }
}
