import CWebKitGTK
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

/// `WebKitUserContentManager` script messages → the strategies.
extension WebContainer {
    /// Registers `window.webkit.messageHandlers.<name>` (Promise-returning `postMessage`)
    /// and connects its reply signal. The connection lives until tear-down.
    func registerMessageHandler(_ name: String) {
        webkit_user_content_manager_register_script_message_handler_with_reply(contentManager, name, nil)
        signals.connect(
            gptr(contentManager), "script-message-with-reply-received::\(name)",
            context: SignalContext(owner: self, tag: name), handler: gCallback(onScriptMessage))
    }

    /// Adds or replaces a strategy while the container runs. The next message with its
    /// identifier reaches the new strategy; a new identifier is registered on the page's
    /// next load.
    public func setStrategy(_ strategy: any ScriptMessageStrategy) {
        let isNew = strategies.strategy(for: strategy.identifier) == nil
        strategies = strategies.adding(strategy)
        if isNew { registerMessageHandler(strategy.identifier) }
    }

    /// Answers one message: parse, dispatch, reply exactly once, log the outcome.
    func receiveMessage(name: String, value: UnsafeMutablePointer<JSCValue>, reply: OpaquePointer) {
        let pending = PendingScriptReply(reply: reply, messageValue: value)
        let body: JSONValue
        do {
            body = try JSONValue(jsValue: value)
        } catch {
            let failure = ScriptMessageError("\(name): \(error)")
            pending.answer(.failure(failure))
            record(.message(name: name, outcome: "rejected", error: failure.message))
            return
        }
        let message = ScriptMessage(name: name, body: body, pageURL: currentURL)
        let context = ScriptMessageContext(host: self)
        let strategies = self.strategies
        Task { @MainActor [weak self] in
            let result = await strategies.dispatch(message, context: context)
            pending.answer(result)
            switch result {
            case .success: self?.record(.message(name: name, outcome: "resolved", error: nil))
            case .failure(let error): self?.record(.message(name: name, outcome: "rejected", error: error.message))
            }
        }
    }
}

/// `script-message-with-reply-received::NAME`:
/// `gboolean (*)(WebKitUserContentManager*, JSCValue*, WebKitScriptMessageReply*, gpointer)`.
private let onScriptMessage: @convention(c) (OpaquePointer?, UnsafeMutablePointer<JSCValue>?, OpaquePointer?, gpointer?) -> gboolean = {
    _, value, reply, data in
    guard let value, let reply, let container = WebContainer.from(data) else { return 0 }
    let name = SignalContext.tag(data)
    MainActor.assumeIsolated { container.receiveMessage(name: name, value: value, reply: reply) }
    return 1
}
