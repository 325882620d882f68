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
/// Ownership: the pane holds a reference to its view and content manager and owns the
/// signal connections it makes on them (`signals`); `tearDown()` disconnects and releases
/// them. The pane refers to its container weakly: the container owns the panes.
@MainActor
final class WebPane {
    let webView: UnsafeMutablePointer<WebKitWebView>
    let contentManager: UnsafeMutablePointer<WebKitUserContentManager>
    let signals = SignalConnections()
    weak var container: WebContainer?
    /// The strategies' handlers registered on the page, each with the origins allowed to
    /// call it (looked up per message: kept here rather than asked of the configuration).
    private(set) var registeredHandlers: [String: Set<Origin>] = [:]
    /// The frames whose bridge registered a token (see `ScriptBridge`).
    var frames: FrameRegistry
    /// Each frame's open channels (see `BridgeChannel`), owned here until the registry
    /// forgets the frame or the pane tears down.
    var channels: [FrameToken: [BridgeChannel]] = [:]
    private(set) var isTornDown = false
    /// Crash and hang bookkeeping (see `WebPane+Recovery`).
    var recovery = RecoveryState()

    init(container: WebContainer) {
        self.container = container
        let configuration = container.configuration
        frames = FrameRegistry(callers: configuration.strategyOrigins.values.reduce(configuration.appOrigins) { $0.union($1) })
        contentManager = webkit_user_content_manager_new()
        let view = webkit_web_view_new_with_user_content_manager(contentManager)!
        // The view is a floating GtkWidget; sink it so the pane holds a real reference.
        webView = cast(g_object_ref_sink(gptr(view)).assumingMemoryBound(to: GtkWidget.self))
        configureSettings(configuration)
        installScripts(configuration)
        registerFrameHandler()
        for identifier in container.strategies.identifiers { registerMessageHandler(identifier) }
        connectSignals(configuration)
        DownloadRouter.shared.add(self)
    }

    var widget: UnsafeMutablePointer<GtkWidget> { cast(webView) }

    var currentURL: URL? {
        string(webkit_web_view_get_uri(webView)).flatMap(URL.init(string:))
    }

    func load(_ url: URL) {
        webkit_web_view_load_uri(webView, url.absoluteString)
    }

    // MARK: Set-up

    private func configureSettings(_ configuration: Configuration) {
        let settings = webkit_web_view_get_settings(webView)
        webkit_settings_set_enable_developer_extras(settings, configuration.developerTools ? 1 : 0)
        if let userAgent = configuration.userAgent {
            webkit_settings_set_user_agent(settings, userAgent)
        }
    }

    private func installScripts(_ configuration: Configuration) {
        // The bridge comes first so page scripts and other user scripts find `vitrine`.
        add(UserScript(source: ScriptBridge.frameRegistrar, injectionTime: .documentStart, frames: .allFrames),
            world: ScriptBridge.worldName)
        add(UserScript(source: ScriptBridge.pageSDK, injectionTime: .documentStart, frames: .allFrames), world: nil)
        for script in configuration.userScripts { add(script, world: nil) }
    }

    private func add(_ script: UserScript, world: String?) {
        let frames = script.frames == .topFrame ? WEBKIT_USER_CONTENT_INJECT_TOP_FRAME : WEBKIT_USER_CONTENT_INJECT_ALL_FRAMES
        let time = script.injectionTime == .documentStart
            ? WEBKIT_USER_SCRIPT_INJECT_AT_DOCUMENT_START : WEBKIT_USER_SCRIPT_INJECT_AT_DOCUMENT_END
        let userScript = world.map { webkit_user_script_new_for_world(script.source, frames, time, $0, nil, nil) }
            ?? webkit_user_script_new(script.source, frames, time, nil, nil)
        webkit_user_content_manager_add_script(contentManager, userScript)
        webkit_user_script_unref(userScript)
    }

    /// Registers a strategy's Promise-returning handler in the page's world (the SDK posts
    /// to it with the frame's token) and connects its reply signal, detailed by name: the
    /// signal does not carry it otherwise. The connection lives until tear-down.
    func registerMessageHandler(_ name: String) {
        guard registeredHandlers[name] == nil, name != ScriptBridge.frameHandlerName, let container else { return }
        registeredHandlers[name] = container.configuration.allowedOrigins(forStrategy: name)
        webkit_user_content_manager_register_script_message_handler_with_reply(contentManager, name, nil)
        signals.connect(
            gptr(contentManager), "script-message-with-reply-received::\(name)",
            context: SignalContext(owner: self, tag: name), handler: gCallback(onScriptMessage))
    }

    /// Opens `frame`'s channel to the strategy `name` (see `BridgeChannel`).
    func openChannel(to name: String, for token: FrameToken, allowedOrigins: Set<Origin>, batches: Bool) {
        guard channels[token]?.contains(where: { $0.strategy == name }) != true else { return }
        let channel = BridgeChannel(strategy: name, token: token, allowedOrigins: allowedOrigins, batches: batches)
        webkit_user_content_manager_register_script_message_handler_with_reply(contentManager, channel.handlerName, nil)
        // WebKit interns each handler name as a GQuark for the signal's detail: one small
        // string per channel for the life of the process, hence channels only for frames
        // that keep calling.
        channel.signalID = signals.connect(
            gptr(contentManager), "script-message-with-reply-received::\(channel.handlerName)",
            context: SignalContext(owner: self, item: channel), handler: gCallback(onChannelMessage))
        channels[token, default: []].append(channel)
    }

    /// Closes a forgotten frame's channels: its later posts there throw in the page.
    func closeChannels(of token: FrameToken) {
        guard let closing = channels.removeValue(forKey: token) else { return }
        for channel in closing {
            signals.disconnect(id: channel.signalID)
            webkit_user_content_manager_unregister_script_message_handler(contentManager, channel.handlerName)
        }
    }

    /// The registrar's handler, in the isolated world only, where page scripts cannot
    /// post to it. Connected until tear-down.
    private func registerFrameHandler() {
        let name = ScriptBridge.frameHandlerName
        webkit_user_content_manager_register_script_message_handler_with_reply(contentManager, name, ScriptBridge.worldName)
        signals.connect(
            gptr(contentManager), "script-message-with-reply-received::\(name)",
            context: SignalContext(owner: self, tag: name), handler: gCallback(onFrameRegistration))
    }

    // MARK: Tear-down

    func tearDown() {
        guard !isTornDown else { return }
        isTornDown = true
        signals.disconnectAll()
        for name in registeredHandlers.keys {
            webkit_user_content_manager_unregister_script_message_handler(contentManager, name)
        }
        for channel in channels.values.joined() {
            webkit_user_content_manager_unregister_script_message_handler(contentManager, channel.handlerName)
        }
        channels.removeAll()
        webkit_user_content_manager_unregister_script_message_handler_in_world(
            contentManager, ScriptBridge.frameHandlerName, ScriptBridge.worldName)
        frames.removeAll()
        recovery.watchdog?.cancel()
        DownloadRouter.shared.remove(self)
        g_object_unref(gptr(webView))
        g_object_unref(gptr(contentManager))
    }

    /// The pane behind a signal's user data. GLib calls signal handlers on the thread that
    /// runs the main loop, which is the main actor's thread.
    nonisolated static func from(_ data: gpointer?) -> WebPane? {
        MainActor.assumeIsolated { SignalContext.owner(data, as: WebPane.self) }
    }
}

/// `script-message-with-reply-received::NAME`:
/// `gboolean (*)(WebKitUserContentManager*, JSCValue*, WebKitScriptMessageReply*, gpointer)`.
private let onScriptMessage: @convention(c) (OpaquePointer?, UnsafeMutablePointer<JSCValue>?, OpaquePointer?, gpointer?) -> gboolean = {
    _, value, reply, data in
    guard let value, let reply else { return 0 }
    // One isolation check per message (each costs a closure context and an executor check).
    return MainActor.assumeIsolated {
        guard let pane = SignalContext.owner(data, as: WebPane.self) else { return 0 }
        pane.receiveMessage(name: SignalContext.tag(data), value: value, reply: reply)
        return 1
    }
}

/// `script-message-with-reply-received::NAME#TOKEN`: a frame's channel, same signature.
private let onChannelMessage: @convention(c) (OpaquePointer?, UnsafeMutablePointer<JSCValue>?, OpaquePointer?, gpointer?) -> gboolean = {
    _, value, reply, data in
    guard let value, let reply else { return 0 }
    return MainActor.assumeIsolated {
        guard let pane = SignalContext.owner(data, as: WebPane.self),
              let channel = SignalContext.item(data, as: BridgeChannel.self) else { return 0 }
        pane.receiveChannelMessage(channel, value: value, reply: reply)
        return 1
    }
}

/// `script-message-with-reply-received::vitrine-frame`: a frame's registrar, same signature.
private let onFrameRegistration: @convention(c) (OpaquePointer?, UnsafeMutablePointer<JSCValue>?, OpaquePointer?, gpointer?) -> gboolean = {
    _, value, reply, data in
    guard let value, let reply, let pane = WebPane.from(data) else { return 0 }
    MainActor.assumeIsolated { pane.registerFrame(value, reply: reply) }
    return 1
}
