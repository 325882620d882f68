import CWebKitGTK
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import Vitrine

/// A GTK window hosting WebKitGTK views, driven by a `Configuration`: the adapter between
/// WebKit's signals and Vitrine's chain and strategies.
///
/// The window shows its panes (`PaneStage`: one `WebPane`, one per zone, or a native tab bar
/// with a pane per configured tab), and its features do the rest (`WindowFeature`).
/// Ownership: the container holds a reference to its window and owns its stage, its
/// features and the signal connections it makes on its own widgets (`signals`).
/// `tearDown()` disconnects everything when the window is destroyed (by the user, by
/// `close()`, or by the program); each owner releases what it holds when it goes, so a
/// container dropped without ever being shown leaves nothing behind either.
@MainActor
public final class WebContainer {
    public let configuration: Configuration
    /// The strategies in force; `setStrategy` swaps them at run time.
    var strategies: ScriptMessageStrategies
    /// URLs handed to the desktop's URI handler, most recent last.
    var externallyOpenedURLs: [URL] = []
    /// Opens a URL outside the container. Defaults to the desktop's URI handler
    /// (`gtk_show_uri_on_window`); embedders and tests may replace it.
    public var externalOpener: ((URL) -> Void)?
    /// Called once the window has been destroyed and everything released.
    public var onClose: (() -> Void)?
    /// The container's reference to its window (GTK keeps another until it is destroyed).
    private let windowReference: GObjectReference<GtkWidget>
    var window: UnsafeMutablePointer<GtkWidget> { windowReference.pointer }
    /// The window's child: a menu bar, when one is set, above the stage's stack.
    let layout: UnsafeMutablePointer<GtkWidget>
    /// The window's content: its panes, which one is shown, a native route over them.
    private(set) lazy var stage = PaneStage(in: self)
    /// Playlist pages' last good loads, shown when the live page fails.
    private(set) lazy var snapshots = PageSnapshotKeeper(container: self)
    /// What the window does besides showing pages, each attached once (`attach`).
    private(set) var features = WindowFeatures()
    /// What the chain, the strategies and the features see of this window.
    private(set) lazy var host = WindowHost(self)
    /// This container's `app://` files, routed to its own views only.
    let appSite: AppSite?
    let signals = SignalConnections()
    var sinks = EventSinks()
    /// The app's windows this one belongs to (see `openWindow`), and its id among them.
    public let windows: WindowGroup
    private(set) var windowID = 0
    private(set) var isTornDown = false
    /// While the window is shown the container keeps itself alive, like the window it
    /// owns: callers need not hold it. Released in `tearDown()`.
    private var retainedWhileShown: WebContainer?
    private var hasLoadedStart = false
    /// The monitor a `[[displays]]` window is shown fullscreen on (`start()`); nil: the
    /// configuration's `fullscreen` decides.
    var fullscreenMonitor: Int?
    let logger = Logger(label: "vitrine.container")

    /// Builds the window and views and wires every signal. Nothing loads until `start()`:
    /// handlers and strategies are in place before the first navigation.
    /// `services`: what the app has once for all its windows (a new app's by default).
    public convenience init(configuration: Configuration, services: AppServices = AppServices()) {
        self.init(configuration: configuration, joining: WindowGroup(services: services))
    }

    /// A window of `group` (`openWindow`'s windows join their opener's).
    init(configuration: Configuration, joining group: WindowGroup) {
        self.configuration = configuration
        // The capabilities' strategies are always there (each refuses pages not granted
        // its capability); a configured strategy of the same name takes their place.
        self.strategies = configuration.strategies.addingMissing(BuiltInCapabilities.strategies(for: configuration))
        windows = group
        GTKRuntime.initialize(for: configuration)
        GTKRuntime.setWebKitEnvironment(configuration.webKitEnvironment)
        ProcessWebContext.prepare(for: configuration)
        appSite = configuration.appDirectory.map { AppSchemeHandler.shared.site(for: $0) }
        windowReference = GObjectReference(retaining: gtk_window_new(GTK_WINDOW_TOPLEVEL))
        layout = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)
        buildWindow()
        TLSExceptions.install(configuration.tlsExceptions, record: record)
        NetworkSetup.install(configuration.network, record: record)
        windowID = group.join(self)
        for feature in BuiltInFeatures.features(for: self) { attach(feature) }
    }

    /// Attaches `feature` to the window: it hears the window's life from now on, until the
    /// window goes. Before `start()`, so that it hears the first load.
    public func attach(_ feature: any WindowFeature) {
        guard !isTornDown else { return }
        features.add(feature)
        feature.attach(to: host)
    }

    /// The attached feature of type `type`, if any.
    public func feature<F: WindowFeature>(_ type: F.Type) -> F? {
        features.first(type)
    }

    /// The attached feature that is an `S` (a capability's service, `ClipboardService`…); nil
    /// once the window has gone, so that every capability refuses (fails closed) from then on.
    func service<S>(_ type: S.Type) -> S? {
        isTornDown ? nil : features.first(type)
    }

    private func buildWindow() {
        gtk_window_set_title(windowPointer, Redaction.text(configuration.title))
        gtk_window_set_default_size(windowPointer, gint(configuration.windowSize.width), gint(configuration.windowSize.height))
        gtk_box_pack_end(cast(layout), stage.stack, 1, 1, 0)
        gtk_container_add(cast(window), layout)
        signals.connect(gptr(window), "destroy", context: SignalContext(owner: self), handler: gCallback(onWindowDestroy))
        signals.connect(gptr(window), "delete-event", context: SignalContext(owner: self), handler: gCallback(onDeleteEvent))
    }

    /// Starts loading the start page before the window is shown, so the web process
    /// starts while the program does other work (such as registering on the session bus).
    /// `start()` then shows the window without loading again.
    func preload() {
        guard !isTornDown, !hasLoadedStart else { return }
        hasLoadedStart = true
        sinks.started()
        retainedWhileShown = self
        loadFirstPage()
    }

    /// Shows the window and loads the start URL (and each tab's URL), unless `preload()`
    /// already did.
    public func start() {
        guard !isTornDown else { return }
        retainedWhileShown = self
        sinks.started()
        if configuration.kiosk != nil || !configuration.decorated { gtk_window_set_decorated(windowPointer, 0) }
        gtk_widget_show_all(window)
        if let fullscreenMonitor {
            fullscreen(onMonitor: fullscreenMonitor)
        } else if configuration.fullscreen {
            gtk_window_fullscreen(windowPointer)
        }
        features.forEach { $0.shown() }
        if !hasLoadedStart {
            hasLoadedStart = true
            loadFirstPage()
        }
    }

    /// Puts a `[[displays]]` window fullscreen on `monitor`, again after the monitors
    /// changed (the display system may have moved it when another monitor went).
    func fullscreen(onMonitor monitor: Int) {
        fullscreenMonitor = monitor
        guard !isTornDown else { return }
        gtk_window_fullscreen_on_monitor(windowPointer, gtk_window_get_screen(windowPointer), gint(monitor))
    }

    /// The start page, or a playlist's first page (the schedule's runner loads it).
    private func loadFirstPage() {
        if configuration.schedule.playlist.isEmpty { returnToStart() }
        feature(SignageFeature.self)?.start()
    }

    /// Goes back to the start page (remote control's "home", the kiosk's idle reset).
    func goHome() {
        record(.native(action: .home, detail: configuration.startURL?.absoluteString ?? ""))
        returnToStart()
    }

    /// Loads the start page (and each tab's page, showing the first tab; each zone's).
    func returnToStart() {
        stage.dismissRoute()
        stage.loadStartPages()
    }

    /// Loads `url` in the active view and returns its navigation's decision. The navigation
    /// goes through the chain like any other, unless the configuration refuses the load
    /// outright (`refusal(ofLoad:)`). The load starts before the first suspension; the
    /// outcome is `abandoned` if the window closes, or WebKit never asks, first.
    @discardableResult
    public func load(_ url: URL) async -> LoadOutcome {
        await withCheckedContinuation { continuation in
            startLoading(url) { continuation.resume(returning: $0) }
        }
    }

    /// `load(_:)` for callers that do not wait (a synchronous callback, a load the caller
    /// may outlive): starts now; `answer`, if any, is told the outcome once. Unlike an
    /// awaited `load(_:)`, it does not keep the container alive.
    public func startLoading(_ url: URL, inSlot slot: Int? = nil, then answer: (@MainActor (LoadOutcome) -> Void)? = nil) {
        stage.load(url, inSlot: slot, then: answer)
    }

    /// Sends events (navigation decisions, messages, loads) to `sink` as well. A sink added
    /// before the start first gets what was recorded while the container was built.
    public func addEventSink(_ sink: any EventSink) {
        sinks.add(sink)
    }

    /// Tells every sink `event` (the program records what it does around the container,
    /// such as a pushed configuration's fate, here too).
    public func record(_ event: ContainerEvent) {
        sinks.record(event)
    }

    /// Sends a native event to the `vitrine.on(name, …)` listeners of the pages of `audience`
    /// (by default every page whose origin belongs to the app); answers how many. An event
    /// for the app's pages is recorded; one for a capability's grantees is its feature's to record.
    @discardableResult
    public func emit(_ name: String, _ payload: JSONValue = .null, to audience: PageAudience = .app) -> Int {
        let sent = stage.emit(name, payload, to: audience)
        if case .app = audience { record(.native(action: .emit, detail: name)) }
        return sent
    }

    /// Input the view does not see (the on-screen keyboard's keys) counts as activity too.
    func userActed() {
        feature(KioskGuard.self)?.noteInput()
    }

    // MARK: The pages shown (`PaneStage`)

    /// The URL the active view shows.
    public var currentURL: URL? { stage.activePane.currentURL }

    /// The active view's page title ("" when it has none).
    public var pageTitle: String { string(webkit_web_view_get_title(stage.activePane.webView)) ?? "" }

    /// The index of the tab shown, or nil without tabs.
    public var selectedTab: Int? { stage.selectedTab }

    /// Shows tab `index`.
    public func selectTab(_ index: Int) { stage.selectTab(index) }

    /// Runs JavaScript in the active page and returns its result as JSON.
    public func evaluate(_ script: String) async throws -> JSONValue {
        try await JavaScriptEvaluation.run(script, in: stage.activePane.webView)
    }

    /// Runs a JavaScript function body that may `await` in the active page, and returns
    /// what it resolves to.
    public func evaluateAsync(_ functionBody: String) async throws -> JSONValue {
        try await JavaScriptEvaluation.runAsyncFunction(functionBody, in: stage.activePane.webView)
    }

    /// Whether the active page's bridge is up: its registrar ran (native events reach it, and
    /// it registers the document when the page first uses the bridge).
    func bridgeIsPresent() async -> Bool {
        let check = "typeof \(ScriptBridge.eventFunction) === 'function'"
        return (try? await JavaScriptEvaluation.run(check, in: stage.activePane.webView, world: ScriptBridge.worldName)) == .bool(true)
    }

    /// Writes a PNG of the visible part of the active page to `path`.
    public func snapshot(to path: String) async throws {
        try await Snapshot.write(stage.activePane.webView, to: path)
    }

    /// Reloads the page shown.
    public func reload() {
        webkit_web_view_reload(stage.activePane.webView)
    }

    // MARK: What the panes report (`PaneStage`)

    /// A pane's load changed (`PaneStage`): the events log and every feature hear it.
    func loadChanged(_ load: PaneLoad) {
        record(.load(event: load.event, url: load.url?.absoluteString ?? "", error: load.error, status: load.status, shown: load.shown))
        features.forEach { $0.loadChanged(load) }
    }

    /// The page the user sees took `title` (`PaneStage`).
    func activePageTitleChanged(_ title: String) {
        if configuration.titleFollowsPage { setTitle(title) }
        features.forEach { $0.titleChanged(title) }
    }

    /// A main document's SDK registered with the bridge, in any pane.
    func pageReady(_ url: URL) {
        features.forEach { $0.pageReady(url) }
    }

    // MARK: Strategies and events

    /// Adds or replaces a strategy while the container runs. The next message with its
    /// identifier reaches the new strategy.
    public func setStrategy(_ strategy: any ScriptMessageStrategy) {
        strategies = strategies.adding(strategy)
        for pane in stage.allPanes { pane.messages.registerMessageHandler(strategy.identifier) }
    }

    var windowPointer: UnsafeMutablePointer<GtkWindow> { cast(window) }

    // MARK: Tear-down

    /// Destroys the window; `tearDown` follows from its `destroy` signal.
    public func close() {
        guard !isTornDown else { return }
        gtk_widget_destroy(window)
    }

    /// Disconnects everything while the window's widgets still exist; what the owners hold
    /// goes with them. Pending decisions and replies answer (fail closed) as they are dropped.
    func tearDown() {
        guard !isTornDown else { return }
        isTornDown = true
        stage.dismissRoute()
        features.tearDown()
        signals.disconnectAll()
        stage.tearDown()
        onClose?()
        windows.leave(self)
        retainedWhileShown = nil
    }

    /// A container dropped without being shown or closed: its window goes with it (GTK
    /// keeps toplevel windows alive until they are destroyed).
    isolated deinit {
        guard !isTornDown else { return }
        stage.dismissRoute()
        gtk_widget_destroy(window)
    }
}

/// `delete-event` (the window manager's close request): `gboolean (*)(GtkWidget*, GdkEvent*, gpointer)`;
/// TRUE keeps the window.
private let onDeleteEvent: @convention(c) (UnsafeMutablePointer<GtkWidget>?, OpaquePointer?, gpointer?) -> gboolean = { _, _, data in
    onMainLoop(data) { data in
        guard let container = SignalContext.owner(data, as: WebContainer.self) else { return false }
        guard container.configuration.mayClose(by: .windowManager) else {
            container.record(.native(action: .blockedClose, detail: CloseRequest.windowManager.rawValue))
            return true
        }
        return container.feature(TrayFeature.self)?.hidesOnClose() ?? false // `[window] close-to-tray`
    } ? 1 : 0
}

/// `destroy` on the window: `void (*)(GtkWidget*, gpointer)`.
private let onWindowDestroy: @convention(c) (UnsafeMutablePointer<GtkWidget>?, gpointer?) -> Void = { _, data in
    onMainLoop(data) { data in SignalContext.owner(data, as: WebContainer.self)?.tearDown() }
}
