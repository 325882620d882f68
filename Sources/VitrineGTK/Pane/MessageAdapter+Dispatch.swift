import CWebKitGTK
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

/// Script messages from the page's SDK → the frame's token → origin check → the strategies.
/// Each message is answered exactly once: here, inside WebKit's signal, or by the
/// `PendingScriptReply` that holds it while a strategy works.
extension MessageAdapter {
    /// A frame's isolated world registers its document's token with the origin and URL it
    /// sees, or says that the document has gone (`FrameRegistration`). Answered at once; a
    /// malformed registration is ignored.
    func registerFrame(_ value: UnsafeMutablePointer<JSCValue>, reply: OpaquePointer) {
        if let undefined = jsc_value_new_undefined(jsc_value_get_context(value)) {
            webkit_script_message_reply_return_value(reply, undefined)
            g_object_unref(gptr(undefined))
        }
        guard jsc_value_is_string(value) != 0, let text = takeString(jsc_value_to_string(value)),
              let registration = FrameRegistration(text) else { return }
        frames.apply(registration).forEach(closeChannels)
        if case .document(_, true, _, let url) = registration, let url = URL(string: url), let container = pane?.container {
            container.pageReady(url)
        }
    }

    /// Answers one message on the shared `NAME` handler exactly once: find the frame by the
    /// request's token, check its origin, dispatch, reply, log the outcome.
    func receiveMessage(name: String, value: UnsafeMutablePointer<JSCValue>, reply: OpaquePointer) {
        guard let container = pane?.container else { return Self.answerClosed(value: value, reply: reply) }
        let request = BridgeRequest(value)
        let frame = request.flatMap { frames.principal(for: $0.token) }
        guard let request else {
            return reject(Self.malformed(name), name: name, origin: nil, value: value, reply: .message(reply), container: container)
        }
        let allowed = registeredHandlers[name] ?? []
        let delivery = dispatch(name: name, frame: frame, allowed: allowed, body: request.body,
                                value: value, reply: .message(reply), container: container)
        // A frame that keeps calling gets its own channel (its SDK starts looking for it
        // after as many calls).
        guard delivery != .rejected, frame != nil else { return }
        if let opening = countCall(to: name, from: request.token, answeredAtOnce: delivery == .answeredAtOnce) {
            openChannel(to: name, for: request.token, allowedOrigins: allowed, batches: opening.batches)
        }
    }

    /// Answers one message on a frame's channel exactly once: the channel names the frame,
    /// whose origin is checked again (the registry may have forgotten it). A batch gets one
    /// reply, with every call's answer in it.
    func receiveChannelMessage(_ channel: BridgeChannel, port: BridgePort, value: UnsafeMutablePointer<JSCValue>,
                               reply: OpaquePointer) {
        let name = channel.strategy
        guard let container = pane?.container else { return Self.answerClosed(value: value, reply: reply) }
        let frame = frames.principal(for: channel.token)
        switch BridgeChannel.message(of: value, on: port) {
        case .call(let body):
            dispatch(name: name, frame: frame, allowed: channel.allowedOrigins, body: body,
                     value: value, reply: .message(reply, port: port), container: container)
        case .batch(let calls, let count):
            receiveBatch(name: name, frame: frame, allowed: channel.allowedOrigins, calls: calls, count: count,
                         reply: reply, container: container)
        case nil:
            reject(Self.malformed(name), name: name, origin: frame?.reportedOrigin, value: value, reply: .message(reply, port: port),
                   container: container)
        }
    }

    /// Calls the SDK sent together on a channel: one origin check for the frame, then each
    /// call as if it came alone, answered into its place in the batch's one reply.
    private func receiveBatch(name: String, frame: Principal?, allowed: Set<Origin>, calls: JSValueReference,
                              count: Int, reply: OpaquePointer, container: WebContainer) {
        let batch = BridgeBatchReply(reply: reply, calls: calls, count: count)
        let pageURL: URL
        switch admission(name: name, frame: frame, allowed: allowed) {
        case .success(let url): pageURL = url
        case .failure(let error):
            batch.reject(error.message)
            for _ in 0..<count {
                container.record(.message(name: name, outcome: .rejected, error: error.message, origin: frame?.reportedOrigin))
            }
            return
        }
        for index in 0..<count {
            let destination = ReplyDestination.batchItem(batch, index: index)
            guard let call = jsc_value_object_get_property_at_index(calls.pointer, guint(index)).map(JSValueReference.init(adopting:)),
                  let body = BridgeChannel.body(of: call.pointer)
            else {
                let error = ScriptMessageError(Self.malformed(name))
                batch.settle(index, with: .failure(error), body: nil)
                container.record(.message(name: name, outcome: .rejected, error: error.message, origin: frame?.reportedOrigin))
                continue
            }
            answer(name: name, pageURL: pageURL, frame: frame, body: body, messageValue: call.pointer,
                   to: destination, container: container)
        }
    }

    private static func malformed(_ name: String) -> String {
        "\(name): malformed message (post through vitrine.invoke or window.webkit.messageHandlers)"
    }

    static func answerClosed(value: UnsafeMutablePointer<JSCValue>, reply: OpaquePointer) {
        PendingScriptReply.send(.failure(ScriptMessageError("the container closed before answering")),
                                body: nil, messageValue: value, to: .message(reply))
    }

    private func reject(_ message: String, name: String, origin: String?, value: UnsafeMutablePointer<JSCValue>,
                        reply: ReplyDestination, container: WebContainer) {
        PendingScriptReply.send(.failure(ScriptMessageError(message)), body: nil, messageValue: value, to: reply)
        container.record(.message(name: name, outcome: .rejected, error: message, origin: origin))
    }

    /// The calling frame's document URL if it may call `name`, else why not (`Admission`).
    private func admission(name: String, frame: Principal?, allowed: Set<Origin>) -> Result<URL, ScriptMessageError> {
        Admission.decide(frame, strategy: name, allowed: allowed,
                         capability: strategyIsBuiltInCapability(name) ? Capability(rawValue: name) : nil)
    }

    /// Whether `name` is answered by a capability's strategy (not one configured in its place).
    private func strategyIsBuiltInCapability(_ name: String) -> Bool {
        guard let strategy = pane?.container?.strategies.strategy(for: name) else { return false }
        return type(of: strategy).capability != nil
    }

    /// What became of one message.
    enum Delivery {
        /// It never reached a strategy (unknown frame, origin not allowed).
        case rejected
        /// The strategy answered within WebKit's signal (`immediateReply`).
        case answeredAtOnce
        /// The strategy's task will answer.
        case deferred
    }

    /// The checks and the dispatch of one message. `reply` is answered before this returns,
    /// unless a strategy has to wait: then a `PendingScriptReply` holds it until the
    /// strategy's task answers.
    @discardableResult
    private func dispatch(name: String, frame: Principal?, allowed: Set<Origin>, body: BridgeRequest.Body,
                          value: UnsafeMutablePointer<JSCValue>, reply: ReplyDestination, container: WebContainer) -> Delivery {
        switch admission(name: name, frame: frame, allowed: allowed) {
        case .failure(let error):
            reject(error.message, name: name, origin: frame?.reportedOrigin, value: value, reply: reply, container: container)
            return .rejected
        case .success(let pageURL):
            return answer(name: name, pageURL: pageURL, frame: frame, body: body, messageValue: value,
                          to: reply, container: container)
        }
    }

    /// Runs the strategy for one admitted call and answers `destination`, logging the outcome.
    @discardableResult
    private func answer(name: String, pageURL: URL, frame: Principal?, body: BridgeRequest.Body,
                        messageValue: UnsafeMutablePointer<JSCValue>, to destination: ReplyDestination,
                        container: WebContainer) -> Delivery {
        let view = ScriptMessageView(name: name, pageURL: pageURL, makeBodyJSON: BridgeRequest.makeBodyJSON(body),
                                     makeBodyBytes: BridgeRequest.makeBodyBytes(body))
        // The gate checks the calling frame's own origin (its registrar's `location`),
        // not the top frame's.
        let context = ScriptMessageContext(host: container.host, capabilities: container.configuration.capabilities, caller: frame)
        let origin = frame?.reportedOrigin
        let strategies = container.strategies
        func record(_ result: Result<ScriptReply, ScriptMessageError>, in container: WebContainer?) {
            switch result {
            case .success: container?.record(.message(name: name, outcome: .resolved, error: nil, origin: origin))
            case .failure(let error):
                container?.record(.message(name: name, outcome: .rejected, error: error.message, origin: origin, code: error.code))
            }
        }
        // A strategy that knows its answer at once (`ping`) answers within this signal
        // emission: no task, and nothing held.
        if let result = strategies.immediateReply(view, context: context) {
            PendingScriptReply.send(result, body: body, messageValue: messageValue, to: destination)
            record(result, in: container)
            return .answeredAtOnce
        }
        // Otherwise a task that runs at once on this thread up to the strategy's first
        // suspension: a strategy that answers without waiting still answers here, with no
        // extra main-loop turn. The body becomes text here, while its source is at hand.
        let message = view.message
        let pending = PendingScriptReply(to: destination, messageValue: messageValue, body: body)
        Task.immediate { @MainActor [weak container] in
            let result = await strategies.dispatchReply(message, context: context)
            pending.answer(result)
            record(result, in: container)
        }
        return .deferred
    }
}
