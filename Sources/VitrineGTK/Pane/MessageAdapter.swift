import CWebKitGTK
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

/// The bridge's native side for one pane: the strategies' WebKit handlers, the frame
/// registrar's handler, each frame's channels, and what arrives on them (see
/// `MessageAdapter+Dispatch`).
///
/// Every handler it registers it unregisters, and every connection it makes it
/// disconnects, on tear-down or when it goes. A message that arrives with nobody left to
/// answer it is rejected ("the container closed before answering").
@MainActor
final class MessageAdapter: PaneCollaborator {
    weak var pane: WebPane?
    private let contentManager: GObjectReference<WebKitUserContentManager>
    let signals = SignalConnections()
    /// The strategies' handlers registered on the page, each with the origins allowed to
    /// call it (looked up per message: kept here rather than asked of the configuration).
    private(set) var registeredHandlers: [String: Set<Origin>] = [:]
    private let configuration: Configuration
    /// The documents whose frame registered a token, and who each token stands for (see
    /// `ScriptBridge`).
    var frames: FrameRegistry
    /// Per frame document and strategy, its admitted calls on the shared handler until it
    /// earns a channel there (the core's policy).
    private var ledger = ChannelLedger()
    /// Each frame's open channels (see `BridgeChannel`), owned here until the registry
    /// forgets the frame or the pane tears down.
    private(set) var channels: [FrameToken: [BridgeChannel]] = [:]
    private var isRegistered = false

    init(contentManager: GObjectReference<WebKitUserContentManager>, configuration: Configuration) {
        self.contentManager = contentManager
        self.configuration = configuration
        let granted = Set(configuration.capabilities.byOrigin.keys)
        frames = FrameRegistry(callers: configuration.strategyOrigins.values.reduce(configuration.appOrigins.union(granted)) { $0.union($1) },
                               appID: configuration.applicationID)
    }

    func attach(to pane: WebPane) {
        self.pane = pane
        isRegistered = true
        registerFrameHandler()
        for identifier in pane.container?.strategies.identifiers ?? [] { registerMessageHandler(identifier) }
    }

    /// Registers a strategy's Promise-returning handler in the page's world (the SDK posts
    /// to it with the frame's token) and connects its reply signal, detailed by name: the
    /// signal does not carry it otherwise.
    func registerMessageHandler(_ name: String) {
        guard isRegistered, registeredHandlers[name] == nil, name != ScriptBridge.frameHandlerName else { return }
        registeredHandlers[name] = configuration.allowedOrigins(forStrategy: name)
        webkit_user_content_manager_register_script_message_handler_with_reply(contentManager.pointer, name, nil)
        signals.connect(
            gptr(contentManager.pointer), "script-message-with-reply-received::\(name)",
            context: SignalContext(owner: self, tag: name), handler: gCallback(onScriptMessage))
    }

    /// The registrar's handler, in the isolated world only, where page scripts cannot
    /// post to it.
    private func registerFrameHandler() {
        let name = ScriptBridge.frameHandlerName
        webkit_user_content_manager_register_script_message_handler_with_reply(contentManager.pointer, name, ScriptBridge.worldName)
        signals.connect(
            gptr(contentManager.pointer), "script-message-with-reply-received::\(name)",
            context: SignalContext(owner: self, tag: name), handler: gCallback(onFrameRegistration))
    }

    /// Opens `frame`'s channel to the strategy `name` (see `BridgeChannel`): its JSON and
    /// bytes ports first, so a page that finds the string port finds them too.
    func openChannel(to name: String, for token: FrameToken, allowedOrigins: Set<Origin>, batches: Bool) {
        guard channels[token]?.contains(where: { $0.strategy == name }) != true else { return }
        let channel = BridgeChannel(strategy: name, token: token, allowedOrigins: allowedOrigins, batches: batches)
        for port in [BridgePort.json, .bytes, .text] {
            let handlerName = channel.handlerName(port)
            webkit_user_content_manager_register_script_message_handler_with_reply(contentManager.pointer, handlerName, nil)
            // WebKit interns each handler name as a GQuark for the signal's detail: a few
            // small strings per channel for the life of the process, hence channels only for
            // frames that keep calling.
            channel.signalIDs.append(signals.connect(
                gptr(contentManager.pointer), "script-message-with-reply-received::\(handlerName)",
                context: SignalContext(owner: self, tag: port.suffix, item: channel), handler: gCallback(onChannelMessage)))
        }
        channels[token, default: []].append(channel)
    }

    /// Closes a forgotten frame's channels: its later posts there throw in the page.
    func closeChannels(of token: FrameToken) {
        ledger.forget(token)
        guard let closing = channels.removeValue(forKey: token) else { return }
        for channel in closing {
            channel.signalIDs.forEach { signals.disconnect(id: $0) }
            unregisterPorts(of: channel)
        }
    }

    private func unregisterPorts(of channel: BridgeChannel) {
        for port in BridgePort.allCases {
            webkit_user_content_manager_unregister_script_message_handler(contentManager.pointer, channel.handlerName(port))
        }
    }

    /// The web process died: every frame's token died with it.
    func processDied() {
        frames.removeAll().forEach(closeChannels)
    }

    /// The main frame committed another page: every document of the old page has gone,
    /// and its tokens with it.
    func mainFrameCommitted() {
        frames.mainFrameCommitted().forEach(closeChannels)
    }

    /// Counts an admitted call of `token`'s document to `name` on the shared handler; the
    /// channel it earned, if this call earned one.
    func countCall(to name: String, from token: FrameToken, answeredAtOnce: Bool) -> ChannelLedger.Opening? {
        ledger.countAdmittedCall(to: name, from: token, answeredAtOnce: answeredAtOnce)
    }

    func tearDown() {
        guard isRegistered else { return }
        isRegistered = false
        signals.disconnectAll()
        let manager = contentManager.pointer
        for name in registeredHandlers.keys { webkit_user_content_manager_unregister_script_message_handler(manager, name) }
        registeredHandlers.removeAll()
        channels.values.joined().forEach(unregisterPorts)
        channels.removeAll()
        ledger.forgetAll()
        webkit_user_content_manager_unregister_script_message_handler_in_world(
            manager, ScriptBridge.frameHandlerName, ScriptBridge.worldName)
        frames.removeAll()
    }

    isolated deinit {
        tearDown()
    }
}

/// The arguments of `script-message-with-reply-received`:
/// `gboolean (*)(WebKitUserContentManager*, JSCValue*, WebKitScriptMessageReply*, gpointer)`.
typealias ScriptMessageSignal = @convention(c) (OpaquePointer?, UnsafeMutablePointer<JSCValue>?, OpaquePointer?, gpointer?) -> gboolean

/// `script-message-with-reply-received::NAME`. Always TRUE: every message is answered,
/// with an error when nobody is left to answer it.
private let onScriptMessage: ScriptMessageSignal = { _, value, reply, data in
    guard let value, let reply else { return 1 }
    // One isolation check per message (each costs a closure context and an executor check).
    onMainLoop((value, reply, data)) { value, reply, data in
        guard let adapter = SignalContext.owner(data, as: MessageAdapter.self) else {
            return MessageAdapter.answerClosed(value: value, reply: reply)
        }
        adapter.receiveMessage(name: SignalContext.tag(data), value: value, reply: reply)
    }
    return 1
}

/// `script-message-with-reply-received::NAME#TOKEN…`: a frame's channel port (the tag), same signature.
private let onChannelMessage: ScriptMessageSignal = { _, value, reply, data in
    guard let value, let reply else { return 1 }
    onMainLoop((value, reply, data)) { value, reply, data in
        guard let adapter = SignalContext.owner(data, as: MessageAdapter.self),
              let channel = SignalContext.item(data, as: BridgeChannel.self),
              let port = BridgePort(suffix: SignalContext.tag(data))
        else { return MessageAdapter.answerClosed(value: value, reply: reply) }
        adapter.receiveChannelMessage(channel, port: port, value: value, reply: reply)
    }
    return 1
}

/// `script-message-with-reply-received::vitrine-frame`: a frame's registrar, same signature.
private let onFrameRegistration: ScriptMessageSignal = { _, value, reply, data in
    guard let value, let reply else { return 1 }
    onMainLoop((value, reply, data)) { value, reply, data in
        guard let adapter = SignalContext.owner(data, as: MessageAdapter.self) else {
            return MessageAdapter.answerClosed(value: value, reply: reply)
        }
        adapter.registerFrame(value, reply: reply)
    }
    return 1
}
