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
        let registration = frames.register(token: token, origin: String(fields[1]), url: String(fields[2]))
        if let forgotten = registration.forgottenCaller { closeChannels(of: forgotten) }
    }

    /// Answers one message on the shared `NAME` handler exactly once: find the frame by the
    /// request's token, check its origin, dispatch, reply, log the outcome.
    func receiveMessage(name: String, value: UnsafeMutablePointer<JSCValue>, reply: OpaquePointer) {
        guard let container else { return answerClosed(value: value, reply: reply) }
        let request = BridgeRequest(value)
        let frame = request.flatMap { frames.frame(for: $0.token) }
        guard let request else {
            return reject(Self.malformed(name), name: name, origin: nil, value: value, reply: reply, container: container)
        }
        let allowed = registeredHandlers[name] ?? []
        let reached = dispatch(name: name, frame: frame, allowed: allowed, body: request.body,
                               value: value, reply: reply, container: container)
        // A frame that keeps calling gets its own channel (its SDK starts looking for it
        // after as many calls).
        if reached, let frame {
            let calls = frame.callsWithoutChannel[name, default: 0] + 1
            frame.callsWithoutChannel[name] = calls < BridgeChannel.openAfter ? calls : nil
            if calls == BridgeChannel.openAfter {
                openChannel(to: name, for: request.token, allowedOrigins: allowed)
            }
        }
    }

    /// Answers one message on a frame's channel exactly once: the channel names the frame,
    /// whose origin is checked again (the registry may have forgotten it).
    func receiveChannelMessage(_ channel: BridgeChannel, value: UnsafeMutablePointer<JSCValue>, reply: OpaquePointer) {
        let name = channel.strategy
        guard let container else { return answerClosed(value: value, reply: reply) }
        let frame = frames.frame(for: channel.token)
        guard let body = BridgeChannel.body(of: value) else {
            return reject(Self.malformed(name), name: name, origin: frame?.origin, value: value, reply: reply,
                          container: container)
        }
        dispatch(name: name, frame: frame, allowed: channel.allowedOrigins, body: body,
                 value: value, reply: reply, container: container)
    }

    private static func malformed(_ name: String) -> String {
        "\(name): malformed message (post through vitrine.invoke or window.webkit.messageHandlers)"
    }

    private func answerClosed(value: UnsafeMutablePointer<JSCValue>, reply: OpaquePointer) {
        PendingScriptReply.send(.failure(ScriptMessageError("the container closed before answering")),
                                body: nil, messageValue: value, to: reply)
    }

    private func reject(_ message: String, name: String, origin: String?, value: UnsafeMutablePointer<JSCValue>,
                        reply: OpaquePointer, container: WebContainer) {
        PendingScriptReply.send(.failure(ScriptMessageError(message)), body: nil, messageValue: value, to: reply)
        container.record(.message(name: name, outcome: "rejected", error: message, origin: origin))
    }

    /// The checks and the dispatch both handlers share. `reply` is answered before this
    /// returns, unless a strategy has to wait: then a `PendingScriptReply` holds it until
    /// the strategy's task answers. Returns whether the message reached the strategy (the
    /// frame is known and its origin allowed).
    @discardableResult
    private func dispatch(name: String, frame: FrameRegistry.Frame?, allowed: Set<Origin>, body: BridgeRequest.Body,
                          value: UnsafeMutablePointer<JSCValue>, reply: OpaquePointer, container: WebContainer) -> Bool {
        let origin = frame?.origin
        guard let frame else {
            reject("\(name): the calling frame is not known to the bridge",
                   name: name, origin: origin, value: value, reply: reply, container: container)
            return false
        }
        guard let pageURL = frame.allowedDocumentURL(allowed) else {
            let url = frame.url.count > 120 ? frame.url.prefix(120) + "…" : frame.url
            reject("origin '\(frame.origin)' (\(url)) is not allowed to call '\(name)'",
                   name: name, origin: origin, value: value, reply: reply, container: container)
            return false
        }
        var message = ScriptMessage(name: name, pageURL: pageURL, makeBodyJSON: BridgeRequest.makeBodyJSON(body))
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
            PendingScriptReply.send(result, body: body, messageValue: value, to: reply)
            record(result, in: container)
            return true
        }
        // Otherwise a task that runs at once on this thread up to the strategy's first
        // suspension: a strategy that answers without waiting still answers here, with no
        // extra main-loop turn.
        let pending = PendingScriptReply(reply: reply, messageValue: value, body: body)
        Task.immediate { @MainActor [weak container] in
            let result = await strategies.dispatchReply(message, context: context)
            message.settleBody()
            pending.answer(result)
            record(result, in: container)
        }
        return true
    }
}
