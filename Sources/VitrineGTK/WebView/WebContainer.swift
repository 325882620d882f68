import CWebKitGTK
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import Vitrine

/// A GTK window hosting a WebKitGTK view, driven by a `Configuration`: the adapter between
/// WebKit's signals and Vitrine's chain and strategies.
///
/// Ownership: the container holds a reference to its window, web view and user content
/// manager, and owns every signal connection it makes (`signals`). All of them are
/// released in `tearDown()`, which runs when the window is destroyed (by the user, by
/// `close()`, or by the program).
@MainActor
public final class WebContainer: ContainerHost {
    public let configuration: Configuration
    /// The strategies in force; `setStrategy` swaps them at run time.
    public internal(set) var strategies: ScriptMessageStrategies
    /// The native route shown over the web view, if any.
    public internal(set) var presentedRoute: NativeRoute?
    /// URLs handed to the desktop's URI handler, most recent last.
    public internal(set) var externallyOpenedURLs: [URL] = []
    /// Opens a URL outside the container. Defaults to the desktop's URI handler
    /// (`gtk_show_uri_on_window`); embedders and tests may replace it.
    public var externalOpener: ((URL) -> Void)?
    /// Called once the window has been destroyed and everything released.
    public var onClose: (() -> Void)?
    /// Called on each load event (`started`, `redirected`, `committed`, `finished`, `failed`).
    public var loadObservers: [(String, URL?) -> Void] = []

    let window: UnsafeMutablePointer<GtkWidget>
    let webView: UnsafeMutablePointer<WebKitWebView>
    let contentManager: UnsafeMutablePointer<WebKitUserContentManager>
    let stack: UnsafeMutablePointer<GtkWidget>
    var routePage: UnsafeMutablePointer<GtkWidget>?
    var activeDialog: UnsafeMutablePointer<GtkWidget>?
    var pendingConfirmation: CheckedContinuation<Bool, Never>?
    let signals = SignalConnections()
    private var sinks: [any EventSink] = []
    private(set) var isTornDown = false
    /// While the window is shown the container keeps itself alive, like the window it
    /// owns: callers need not hold it. Released in `tearDown()`.
    private var retainedWhileShown: WebContainer?
    let logger = Logger(label: "vitrine.container")

    /// Builds the window and view and wires every signal. Nothing loads until `start()`:
    /// handlers and strategies are in place before the first navigation.
    public init(configuration: Configuration) {
        self.configuration = configuration
        self.strategies = configuration.strategies
        GTKRuntime.initialize()
        if let appDirectory = configuration.appDirectory {
            AppSchemeHandler.shared.serve(appDirectory)
        }

        contentManager = webkit_user_content_manager_new()
        let view = webkit_web_view_new_with_user_content_manager(contentManager)!
        // The view is a floating GtkWidget; sink it so this container holds a real reference.
        webView = cast(g_object_ref_sink(gptr(view)).assumingMemoryBound(to: GtkWidget.self))
        window = gtk_window_new(GTK_WINDOW_TOPLEVEL)
        g_object_ref_sink(gptr(window))
        stack = gtk_stack_new()

        configureSettings()
        installUserScripts()
        for identifier in strategies.identifiers { registerMessageHandler(identifier) }
        connectViewSignals()
        buildWindow()
    }

    /// Shows the window and loads the start URL.
    public func start() {
        guard !isTornDown else { return }
        retainedWhileShown = self
        gtk_widget_show_all(window)
        if configuration.fullscreen { gtk_window_fullscreen(windowPointer) }
        if let url = configuration.startURL { load(url) }
    }

    /// Loads `url` in the view. The navigation goes through the chain like any other.
    public func load(_ url: URL) {
        webkit_web_view_load_uri(webView, url.absoluteString)
    }

    /// Sends events (navigation decisions, messages, loads) to `sink` as well.
    public func addEventSink(_ sink: any EventSink) {
        sinks.append(sink)
    }

    func record(_ event: ContainerEvent) {
        for sink in sinks { sink.record(event) }
    }

    /// The URL the view shows.
    public var currentURL: URL? {
        string(webkit_web_view_get_uri(webView)).flatMap(URL.init(string:))
    }

    /// The window's title as GTK shows it.
    public var windowTitle: String {
        string(gtk_window_get_title(windowPointer)) ?? ""
    }

    /// Runs JavaScript in the page and returns its result as JSON (for embedders and tests).
    public func evaluate(_ script: String) async throws -> JSONValue {
        try await JavaScriptEvaluation.run(script, in: webView)
    }

    /// Runs a JavaScript function body that may `await`, and returns what it resolves to.
    public func evaluateAsync(_ functionBody: String) async throws -> JSONValue {
        try await JavaScriptEvaluation.runAsyncFunction(functionBody, in: webView)
    }

    var windowPointer: UnsafeMutablePointer<GtkWindow> { cast(window) }

    // MARK: Set-up

    private func configureSettings() {
        let settings = webkit_web_view_get_settings(webView)
        webkit_settings_set_enable_developer_extras(settings, configuration.developerTools ? 1 : 0)
        if let userAgent = configuration.userAgent {
            webkit_settings_set_user_agent(settings, userAgent)
        }
        // Script messages reply with Promises; window.close() from the page must reach `close`.
        webkit_settings_set_allow_modal_dialogs(settings, 0)
    }

    private func installUserScripts() {
        for script in configuration.userScripts {
            let userScript = webkit_user_script_new(
                script.source,
                script.frames == .topFrame ? WEBKIT_USER_CONTENT_INJECT_TOP_FRAME : WEBKIT_USER_CONTENT_INJECT_ALL_FRAMES,
                script.injectionTime == .documentStart
                    ? WEBKIT_USER_SCRIPT_INJECT_AT_DOCUMENT_START : WEBKIT_USER_SCRIPT_INJECT_AT_DOCUMENT_END,
                nil, nil)
            webkit_user_content_manager_add_script(contentManager, userScript)
            webkit_user_script_unref(userScript)
        }
    }

    private func buildWindow() {
        gtk_window_set_title(windowPointer, configuration.title)
        gtk_window_set_default_size(windowPointer, gint(configuration.windowSize.width), gint(configuration.windowSize.height))
        gtk_stack_add_named(stackPointer, cast(webView), "web")
        gtk_container_add(cast(window), stack)
        signals.connect(gptr(window), "destroy", context: SignalContext(owner: self), handler: gCallback(onWindowDestroy))
    }

    var stackPointer: UnsafeMutablePointer<GtkStack> { cast(stack) }

    // MARK: Tear-down

    /// Destroys the window; `tearDown` follows from its `destroy` signal.
    public func close() {
        guard !isTornDown else { return }
        gtk_widget_destroy(window)
    }

    /// Releases every connection and reference. Pending decisions and replies answer
    /// (fail closed) as they are dropped.
    func tearDown() {
        guard !isTornDown else { return }
        isTornDown = true
        pendingConfirmation?.resume(returning: false)
        pendingConfirmation = nil
        signals.disconnectAll()
        for identifier in strategies.identifiers {
            webkit_user_content_manager_unregister_script_message_handler(contentManager, identifier)
        }
        g_object_unref(gptr(webView))
        g_object_unref(gptr(contentManager))
        g_object_unref(gptr(window))
        onClose?()
        retainedWhileShown = nil
    }
}

/// `destroy` on the window: `void (*)(GtkWidget*, gpointer)`.
private let onWindowDestroy: @convention(c) (UnsafeMutablePointer<GtkWidget>?, gpointer?) -> Void = { _, data in
    guard let container = WebContainer.from(data) else { return }
    MainActor.assumeIsolated { container.tearDown() }
}

extension WebContainer {
    /// The container behind a signal's user data. GLib calls signal handlers on the thread
    /// that runs the main loop, which is the main actor's thread.
    nonisolated static func from(_ data: gpointer?) -> WebContainer? {
        MainActor.assumeIsolated { SignalContext.owner(data, as: WebContainer.self) }
    }
}
