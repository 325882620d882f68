import CWebKitGTK
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

/// Script messages from the page's SDK → the frame's token → origin check → the strategies.
extension WebPane {
    /// A frame's isolated world registers its token with the origin and URL it sees
    /// (`token \n origin \n url`). Answered at once; a malformed registration is ignored.
    func registerFrame(_ value: UnsafeMutablePointer<JSCValue>, reply: OpaquePointer) {
        if let undefined = jsc_value_new_undefined(jsc_value_get_context(value)) {
            webkit_script_message_reply_return_value(reply, undefined)
            g_object_unref(gptr(undefined))
        }
        guard jsc_value_is_string(value) != 0, let text = takeString(jsc_value_to_string(value)) else { return }
        let fields = text.split(separator: "\n", maxSplits: 2, omittingEmptySubsequences: false)
        guard fields.count == 3, let token = FrameToken(fields[0]) else { return }
        frames.register(token: token, origin: String(fields[1]), url: String(fields[2]))
    }

    /// Answers one message exactly once: find the frame by its token, check its origin,
    /// dispatch, reply, log the outcome.
    ///
    /// `reply` is answered before this returns, unless a strategy has to wait: then a
    /// `PendingScriptReply` holds it until the strategy's task answers.
    func receiveMessage(name: String, value: UnsafeMutablePointer<JSCValue>, reply: OpaquePointer) {
        guard let container else {
            PendingScriptReply.send(.failure(ScriptMessageError("the container closed before answering")),
                                    body: nil, messageValue: value, to: reply)
            return
        }
        let request = BridgeRequest(value)
        let frame = request.flatMap { frames.frame(for: $0.token) }
        let origin = frame?.origin
        func reject(_ message: String) {
            PendingScriptReply.send(.failure(ScriptMessageError(message)), body: nil, messageValue: value, to: reply)
            container.record(.message(name: name, outcome: "rejected", error: message, origin: origin))
        }
        guard let request else {
            reject("\(name): malformed message (post through vitrine.invoke or window.webkit.messageHandlers)")
            return
        }
        guard let frame else {
            reject("\(name): the calling frame is not known to the bridge")
            return
        }
        guard let pageURL = frame.allowedDocumentURL(registeredHandlers[name] ?? []) else {
            let url = frame.url.count > 120 ? frame.url.prefix(120) + "…" : frame.url
            reject("origin '\(frame.origin)' (\(url)) is not allowed to call '\(name)'")
            return
        }
        var message = ScriptMessage(name: name, pageURL: pageURL, makeBodyJSON: request.makeBodyJSON())
        let context = ScriptMessageContext(host: container)
        let strategies = container.strategies
        func record(_ result: Result<ScriptReply, ScriptMessageError>, in container: WebContainer?) {
            switch result {
            case .success: container?.record(.message(name: name, outcome: "resolved", error: nil, origin: origin))
            case .failure(let error): container?.record(.message(name: name, outcome: "rejected", error: error.message, origin: origin))
            }
        }
        // A strategy that knows its answer at once (`ping`) answers within this signal
        // emission: no task, and nothing held.
        if let result = strategies.immediateReply(message, context: context) {
            message.settleBody()
            PendingScriptReply.send(result, body: request.body, messageValue: value, to: reply)
            record(result, in: container)
            return
        }
        // Otherwise a task that runs at once on this thread up to the strategy's first
        // suspension: a strategy that answers without waiting still answers here, with no
        // extra main-loop turn.
        let pending = PendingScriptReply(reply: reply, messageValue: value, body: request.body)
        Task.immediate { @MainActor [weak container] in
            let result = await strategies.dispatchReply(message, context: context)
            message.settleBody()
            pending.answer(result)
            record(result, in: container)
        }
    }
}
