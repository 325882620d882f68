import CWebKitGTK
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

/// One WebKitGTK view with its own user content manager, wired to its container's chain
/// and strategies. A container has one pane, or one per native tab.
///
/// The pane only composes; each WebKit signal enters one collaborator, which owns its
/// connections and releases them when it goes:
///
/// | collaborator | signals | decides through |
/// | --- | --- | --- |
/// | `NavigationAdapter` | `decide-policy`, `create` | the chain, `Configuration.outcome(of:for:)` |
/// | `MessageAdapter` | `script-message-with-reply-received::…` | the strategies |
/// | `PageEvents` | `load-changed`, `notify::title`, `close`, `notify::zoom-level` | — (reports) |
/// | `RecoveryMonitor` | `web-process-terminated`, `load-failed`, `load-failed-with-tls-errors` | `CrashLoopDetector`, `HangWatchdog`, `RetrySchedule` |
/// | `PermissionGate` | `permission-request`, `authenticate` | `Configuration.permissionDecision` |
/// | `DownloadGate` | `download-started` (web context) | `Configuration.downloadDirectory` |
/// | `DialogGate` | `script-dialog`, `run-file-chooser`, `run-color-chooser`, `print` | `Configuration.answer(toScriptDialog:)`, `opensNativeDialogs` |
/// | `NetworkWatch` | `network-changed` (GLib's network monitor) | — (tells `RecoveryMonitor`) |
/// | `OnScreenKeyboard` (kiosks with `on-screen-keyboard`) | `script-message-received::vitrine-keyboard`, its keys' `clicked` | `OnScreenKeyboardState` |
///
/// Ownership: the pane owns its view and content manager references and its collaborators;
/// the container owns the panes. Collaborators refer to the pane, and the pane to its
/// container, weakly: a callback that finds either gone fails closed.
@MainActor
final class WebPane {
    let view: GObjectReference<WebKitWebView>
    let contentManager: GObjectReference<WebKitUserContentManager>
    weak var container: WebContainer?
    let configuration: Configuration
    let navigation: NavigationAdapter
    let messages: MessageAdapter
    let pageEvents: PageEvents
    let recovery: RecoveryMonitor
    let permissions: PermissionGate
    let downloads: DownloadGate
    let dialogs: DialogGate
    let network: NetworkWatch
    /// Files dropped from the desktop (`drop` capability).
    let fileDrop = FileDrop()
    /// Vitrine's own keyboard below the view, when the kiosk asks for it.
    let keyboard: OnScreenKeyboard?
    /// The playlist's media items' end reports, when the playlist has media items.
    let mediaItems: MediaItemPlayer?
    /// Loads whose caller waits for their navigation's decision.
    let pendingLoads: PendingLoads
    /// The container's `app://` files, routed to this view until tear-down.
    private var appScheme: AppSchemeRoute?
    private(set) var isTornDown = false
    /// The snapshot address Vitrine is loading in this pane (`PageSnapshotKeeper`): the
    /// only one the navigation adapter lets through.
    var expectedSnapshot: URL?
    /// The snapshot this pane shows, served to its view until replaced or torn down.
    var shownSnapshot: PageSnapshotRoute?

    init(container: WebContainer) {
        self.container = container
        configuration = container.configuration
        // The chain's own timeout, and time for WebKit to ask.
        pendingLoads = PendingLoads(timeout: configuration.navigationChain.defaultTimeout + .seconds(5))
        contentManager = GObjectReference(adopting: webkit_user_content_manager_new())
        // The view is a floating GtkWidget; sinking it gives the pane a real reference.
        let webView = ProcessWebContext.makeView(contentManager: contentManager.pointer,
                                                   autoplay: configuration.webViewSettings.autoplay)
        view = GObjectReference(retaining: webView)
        StartupTrace.process.mark(.firstView)
        appScheme = container.appSite.map { AppSchemeHandler.shared.route(webView, to: $0) }
        navigation = NavigationAdapter()
        messages = MessageAdapter(contentManager: contentManager, configuration: configuration)
        pageEvents = PageEvents()
        recovery = RecoveryMonitor()
        permissions = PermissionGate()
        downloads = DownloadGate()
        dialogs = DialogGate()
        network = NetworkWatch()
        keyboard = configuration.kiosk?.onScreenKeyboard == true
            ? OnScreenKeyboard(view: cast(webView), contentManager: contentManager, layoutName: configuration.keyboardLayout)
            : nil
        mediaItems = MediaItemPlayer.isNeeded(for: configuration) ? MediaItemPlayer(contentManager: contentManager) : nil
        Self.apply(configuration.webViewSettings, rendering: ProcessRendering.choice(for: configuration), to: webView)
        installScripts()
        navigation.attach(to: self)
        messages.attach(to: self)
        pageEvents.attach(to: self)
        recovery.attach(to: self)
        permissions.attach(to: self)
        downloads.attach(to: self)
        dialogs.attach(to: self)
        network.attach(to: self)
        fileDrop.attach(to: self)
        keyboard?.attach(to: self)
        mediaItems?.attach(to: self)
    }

    var webView: UnsafeMutablePointer<WebKitWebView> { view.pointer }
    var widget: UnsafeMutablePointer<GtkWidget> { cast(view.pointer) }
    /// What the window shows for this pane: the view, or the view above its keyboard.
    var rootWidget: UnsafeMutablePointer<GtkWidget> { keyboard?.box.pointer ?? widget }

    var currentURL: URL? {
        string(webkit_web_view_get_uri(webView)).flatMap(URL.init(string:))
    }

    /// Whether the top document has used the bridge (its first call or `vitrine.on`
    /// registered it): one that has not listens to nothing, and is sent no event. (Each
    /// event is JavaScript run in the page, whose result WebKitGTK reads into a JavaScript
    /// value here, even unasked: the first starts a JavaScript engine in this process.)
    var topDocumentUsesBridge: Bool { messages.frames.mainToken != nil }

    /// Loads `url`; `answer`, if any, is told its navigation's decision once (see
    /// `PendingLoads`; `abandoned` if the pane goes first).
    func load(_ url: URL, answer: (@MainActor (LoadOutcome) -> Void)? = nil) {
        if let answer {
            guard !isTornDown else { return answer(.abandoned(reason: "the window is closed")) }
            pendingLoads.add(url, answer: answer)
        }
        webkit_web_view_load_uri(webView, url.absoluteString)
        StartupTrace.process.mark(.loadRequested)
        GTKRuntime.loadRequested()
    }

    func record(_ event: ContainerEvent) {
        container?.record(event)
    }

    /// The frames' open channels (see `BridgeChannel`).
    var channels: [FrameToken: [BridgeChannel]] { messages.channels }

    /// Closes a forgotten frame's channels (see `MessageAdapter.closeChannels(of:)`).
    func closeChannels(of token: FrameToken) { messages.closeChannels(of: token) }

    // MARK: Set-up

    private static func apply(_ settings: WebViewSettings, rendering: RenderingChoice, to view: UnsafeMutablePointer<WebKitWebView>) {
        let webSettings = webkit_web_view_get_settings(view)
        webkit_settings_set_enable_developer_extras(webSettings, settings.developerExtras ? 1 : 0)
        if settings.javascriptCanOpenWindows { webkit_settings_set_javascript_can_open_windows_automatically(webSettings, 1) }
        if let userAgent = settings.userAgent { webkit_settings_set_user_agent(webSettings, userAgent) }
        switch rendering.policy {
        case .never?: webkit_settings_set_hardware_acceleration_policy(webSettings, WEBKIT_HARDWARE_ACCELERATION_POLICY_NEVER)
        case .always?: webkit_settings_set_hardware_acceleration_policy(webSettings, WEBKIT_HARDWARE_ACCELERATION_POLICY_ALWAYS)
        case .auto?, nil: break
        }
    }

    private func installScripts() {
        // The bridge comes first so page scripts and other user scripts find `vitrine`.
        add(UserScript(source: ScriptBridge.frameRegistrar, injectionTime: .documentStart, frames: .allFrames),
            world: ScriptBridge.worldName)
        add(UserScript(source: ScriptBridge.pageSDK, injectionTime: .documentStart, frames: .allFrames), world: nil)
        if configuration.keepsReports {
            add(UserScript(source: SDKFile.script([.pageErrors]), injectionTime: .documentStart, frames: .allFrames), world: nil)
        }
        if keyboard != nil {
            add(UserScript(source: SDKFile.script([.keyboard]), injectionTime: .documentStart, frames: .topFrame),
                world: ScriptBridge.worldName)
        }
        if mediaItems != nil { add(MediaItemPlayer.script, world: ScriptBridge.worldName) }
        for script in configuration.userScripts { add(script, world: nil) }
        if let pdfViewer = configuration.pdfViewerStyleSheet { add(pdfViewer) }
    }

    private func add(_ styleSheet: PDFViewerStyleSheet) {
        [PDFViewerStyleSheet.urlPattern].withCStringArray { allowList in
            let sheet = webkit_user_style_sheet_new(styleSheet.css, WEBKIT_USER_CONTENT_INJECT_ALL_FRAMES,
                                                    WEBKIT_USER_STYLE_LEVEL_USER, allowList, nil)
            webkit_user_content_manager_add_style_sheet(contentManager.pointer, sheet)
            webkit_user_style_sheet_unref(sheet)
        }
    }

    private func add(_ script: UserScript, world: String?) {
        let frames = script.frames == .topFrame ? WEBKIT_USER_CONTENT_INJECT_TOP_FRAME : WEBKIT_USER_CONTENT_INJECT_ALL_FRAMES
        let time = script.injectionTime == .documentStart
            ? WEBKIT_USER_SCRIPT_INJECT_AT_DOCUMENT_START : WEBKIT_USER_SCRIPT_INJECT_AT_DOCUMENT_END
        let userScript = world.map { webkit_user_script_new_for_world(script.source, frames, time, $0, nil, nil) }
            ?? webkit_user_script_new(script.source, frames, time, nil, nil)
        webkit_user_content_manager_add_script(contentManager.pointer, userScript)
        webkit_user_script_unref(userScript)
    }

    // MARK: Tear-down

    /// Disconnects every collaborator now, while the view still exists (the window is being
    /// destroyed). What each holds is released again, harmlessly, when it goes.
    func tearDown() {
        guard !isTornDown else { return }
        isTornDown = true
        pendingLoads.abandonAll("the window is closed")
        appScheme = nil
        shownSnapshot = nil
        navigation.tearDown()
        messages.tearDown()
        pageEvents.tearDown()
        recovery.tearDown()
        permissions.tearDown()
        downloads.tearDown()
        dialogs.tearDown()
        network.tearDown()
        fileDrop.tearDown()
        keyboard?.tearDown()
        mediaItems?.tearDown()
    }
}

/// A part of a pane that owns the signal connections of one job.
@MainActor
protocol PaneCollaborator: AnyObject {
    /// Its connections, disconnected when it goes (or on `tearDown`).
    var signals: SignalConnections { get }
    /// Connects its signals for `pane`, which it refers to weakly.
    func attach(to pane: WebPane)
    /// Disconnects everything now.
    func tearDown()
}

extension PaneCollaborator {
    func tearDown() {
        signals.disconnectAll()
    }

    /// Connects `handler` to `signal` of `pane`'s view, owned (weakly) by this collaborator.
    func connect(_ signal: String, of pane: WebPane, _ handler: GCallback) {
        signals.connect(gptr(pane.webView), signal, context: SignalContext(owner: self), handler: handler)
    }
}
