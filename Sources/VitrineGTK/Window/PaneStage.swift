import CWebKitGTK
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

/// A window's content and which part of it is shown: its panes — one `WebPane`, one per
/// zone (placed in the overlay, `PaneStage+Zones`), or one per native tab — with the pages
/// preloaded under them (`PaneStage+Preload`), and a native route's page over them. It tells
/// its window what the panes report (loads, titles), loads and sends events to their pages,
/// and finds the pane a page's call came from.
///
/// A slot is the place of one pane: 0 without zones or tabs, the zone's or the tab's index
/// with them. Ownership: owned by its window (`WebContainer.stage`), which it refers to
/// weakly; it owns the panes, the preloads and its signal connections on its widgets, all
/// released in `tearDown()`. Its widgets are the window's (its layout holds the stack).
@MainActor
final class PaneStage {
    private(set) weak var container: WebContainer?
    let configuration: Configuration
    /// The panes on screen, by slot (a preloaded pane takes its slot's place: `endPreload`).
    var panes: [WebPane] = []
    /// The window's content: the panes (the "main" page) and, when shown, a native route's
    /// page or the display cover (`DisplayCover`) in their place.
    let stack: UnsafeMutablePointer<GtkWidget>
    var stackPointer: UnsafeMutablePointer<GtkStack> { cast(stack) }
    /// The native route's page, while one is shown.
    private var shownRoute: PresentedRoute?
    /// The tab bar, when the configuration declares tabs.
    private(set) var notebook: UnsafeMutablePointer<GtkWidget>?
    /// Without tabs, the overlay the panes' views lie in (one, or one per zone, placed by
    /// `ZoneLayout`); a preloaded view lies under its slot's until it replaces it.
    private(set) var overlay: UnsafeMutablePointer<GtkWidget>?
    /// The playlist pages loading out of sight, by slot (the pane they will replace).
    var preloaders: [Int: PagePreloader] = [:]
    let signals = SignalConnections()
    private(set) var isTornDown = false

    /// The panes of `container`'s configuration, in a stack the window has yet to show.
    init(in container: WebContainer) {
        self.container = container
        configuration = container.configuration
        if configuration.tabs.isEmpty {
            let overlay = gtk_overlay_new()!
            panes = (0..<max(1, configuration.zones.count)).map { _ in WebPane(container: container) }
            for pane in panes { gtk_overlay_add_overlay(cast(overlay), pane.rootWidget) }
            self.overlay = overlay
        } else {
            let notebook = gtk_notebook_new()!
            for tab in configuration.tabs {
                let pane = WebPane(container: container)
                panes.append(pane)
                gtk_notebook_append_page(cast(notebook), pane.rootWidget, gtk_label_new(tab.title))
            }
            self.notebook = notebook
        }
        stack = gtk_stack_new()
        // Visible before it joins the stack, so it is the stack's first page: a page added
        // later (the display cover, shown at once) must not take its place.
        let main = overlay ?? notebook!
        gtk_widget_show(main)
        gtk_stack_add_named(stackPointer, main, "main")
        if !configuration.zones.isEmpty { placeZones() }
    }

    // MARK: Which pane is shown

    /// The pane the user sees: the current tab's, or the only (or first zone's) one.
    var activePane: WebPane {
        guard let index = selectedTab, panes.indices.contains(index) else { return panes[0] }
        return panes[index]
    }

    /// The index of the tab shown, or nil without tabs.
    var selectedTab: Int? {
        notebook.map { Int(gtk_notebook_get_current_page(cast($0))) }
    }

    /// Shows tab `index`.
    func selectTab(_ index: Int) {
        guard let notebook, panes.indices.contains(index) else { return }
        gtk_notebook_set_current_page(cast(notebook), gint(index))
    }

    /// Loads `url` in the pane of `slot` (the active pane without one), unless the
    /// configuration refuses the load outright (`refusal(ofLoad:)`); `answer`, if any, is
    /// told the outcome once (see `WebContainer.load`).
    func load(_ url: URL, inSlot slot: Int?, then answer: (@MainActor (LoadOutcome) -> Void)?) {
        if let refusal = configuration.refusal(ofLoad: url) {
            container?.record(.navigation(url: url.absoluteString, handler: refusal.handler, policy: refusal.policy,
                                          navigationType: .other, target: .currentView, phase: .request))
            answer?(.decided(refusal))
            return
        }
        guard !isTornDown else {
            answer?(.abandoned(reason: "the window is closed"))
            return
        }
        let pane = slot.flatMap { panes.indices.contains($0) ? panes[$0] : nil } ?? activePane
        pane.load(url, answer: answer)
    }

    /// The native route shown over the panes, if any.
    var presentedRoute: NativeRoute? { shownRoute?.route }

    /// Shows `route`'s native page over the panes, in place of any other.
    func present(_ route: NativeRoute) {
        dismissRoute()
        shownRoute = PresentedRoute(route, over: stackPointer) { [weak self] in self?.dismissRoute() }
    }

    /// Returns from a native route to the panes.
    func dismissRoute() {
        shownRoute = nil
    }

    /// Every pane, on screen or loading out of sight.
    var allPanes: [WebPane] { panes + preloaders.values.map(\.pane) }

    /// The start pages: each zone's, or each tab's (showing the first), or the start page.
    func loadStartPages() {
        guard !isTornDown else { return }
        if !configuration.zones.isEmpty {
            loadZonePages()
        } else if configuration.tabs.isEmpty {
            if let url = configuration.startURL { load(url, inSlot: nil, then: nil) }
        } else {
            for (pane, tab) in zip(panes, configuration.tabs) { pane.load(tab.url) }
            selectTab(0)
        }
    }

    // MARK: What the panes report

    /// A pane's load changed: its window hears it, with the pane's slot and what the load
    /// shows (`RecoveryMonitor.shown`), then the preload the pane is loading for, if any.
    func loadChanged(_ pane: WebPane, event: ContainerEvent.LoadEvent, url: URL?, error: String?, status: Int? = nil) {
        let slot = panes.firstIndex { $0 === pane }
        container?.loadChanged(PaneLoad(event: event, url: url, error: error, status: status, shown: pane.recovery.shown,
                                        pane: pane, slot: slot))
        preloaders.values.first { $0.pane === pane }?.loadChanged(event, url, error: error)
    }

    /// A pane's page took `title`: the window hears it when it is the pane shown.
    func titleChanged(_ pane: WebPane, title: String) {
        guard pane === activePane else { return }
        container?.activePageTitleChanged(title)
    }

    // MARK: Pages

    /// The URL tab `index` shows.
    func url(ofTab index: Int) -> URL? {
        panes.indices.contains(index) ? panes[index].currentURL : nil
    }

    /// Sends a native event to the `vitrine.on(name, …)` listeners of the pages of `audience`
    /// (`WebContainer.emit`) whose top document uses the bridge; answers how many.
    func emit(_ name: String, _ payload: JSONValue, to audience: PageAudience) -> Int {
        let listening = panes.filter { pane in
            guard let url = pane.currentURL, pane.topDocumentUsesBridge else { return false }
            switch audience {
            case .app: return Origin(url).map(configuration.appOrigins.contains) ?? false
            case .granted(let capability): return configuration.capabilities.isGranted(capability, to: Origin(url))
            }
        }
        for pane in listening { dispatch(name, payload, in: pane) }
        return listening.count
    }

    /// Sends a native event to `pane`'s top document only (see `emit`).
    func emit(to pane: WebPane, _ name: String, _ payload: JSONValue) {
        guard pane.topDocumentUsesBridge else { return }
        dispatch(name, payload, in: pane)
        container?.record(.native(action: .emit, detail: name))
    }

    private func dispatch(_ name: String, _ payload: JSONValue, in pane: WebPane) {
        let script = ScriptBridge.eventDispatch(name: name, payloadJSON: payload.jsonText)
        webkit_web_view_evaluate_javascript(pane.webView, script, -1, ScriptBridge.worldName, nil, nil, nil, nil)
    }

    /// The pane whose top document `owner` is, while it is shown.
    func pane(showing owner: FrameToken, for capability: String) throws(ScriptMessageError) -> WebPane {
        guard !isTornDown, let pane = panes.first(where: { $0.messages.frames.mainToken == owner }) else {
            throw ScriptMessageError("\(capability): the calling document is no longer shown")
        }
        return pane
    }

    // MARK: Tear-down

    /// Disconnects the stage's signals, drops the preloads and tears every pane down.
    func tearDown() {
        guard !isTornDown else { return }
        isTornDown = true
        shownRoute = nil
        signals.disconnectAll()
        for slot in preloaders.keys { cancelPreload(inSlot: slot) }
        for pane in panes { pane.tearDown() }
    }
}
