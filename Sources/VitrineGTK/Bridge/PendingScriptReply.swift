import CWebKitGTK
import Vitrine

/// Where one message's answer goes: WebKit's reply to that message, or one call's place in
/// the reply to a channel batch (`BridgeBatchReply`).
enum ReplyDestination {
    case message(OpaquePointer)
    case batchItem(BridgeBatchReply, index: Int)
}

/// A script message's reply, held while the strategy works: the page's Promise settles
/// when `answer` is called, exactly once. Dropped unanswered, it rejects the Promise.
/// The Promise resolves with the strategy's value itself (made from its JSON text here),
/// or with the message's own body for `.messageBody`.
@MainActor
final class PendingScriptReply {
    private var destination: ReplyDestination?
    /// The message's JS value: its context is where the answer value is created.
    private let messageValue: UnsafeMutablePointer<JSCValue>
    /// The body as posted, for `.messageBody`.
    private let body: BridgeRequest.Body?

    init(to destination: ReplyDestination, messageValue: UnsafeMutablePointer<JSCValue>, body: BridgeRequest.Body?) {
        if case .message(let reply) = destination { webkit_script_message_reply_ref(reply) }
        self.destination = destination
        self.messageValue = messageValue
        self.body = body
        g_object_ref(gptr(messageValue))
    }

    /// Resolves the Promise with the strategy's value or rejects it with a message.
    /// Returns false if it was answered already.
    @discardableResult
    func answer(_ result: Result<ScriptReply, ScriptMessageError>) -> Bool {
        guard let destination else { return false }
        self.destination = nil
        Self.send(result, body: body, messageValue: messageValue, to: destination)
        if case .message(let reply) = destination { webkit_script_message_reply_unref(reply) }
        return true
    }

    /// Answers `destination` now: the one place a Promise is settled. Callers answer each
    /// destination once — inside the signal that brought the message
    /// (`WebPane.receiveMessage`), or through a `PendingScriptReply` that holds it.
    static func send(_ result: Result<ScriptReply, ScriptMessageError>, body: BridgeRequest.Body?,
                     messageValue: UnsafeMutablePointer<JSCValue>, to destination: ReplyDestination) {
        switch destination {
        case .message(let reply):
            switch value(of: result, body: body, in: jsc_value_get_context(messageValue)) {
            case .success(let value):
                webkit_script_message_reply_return_value(reply, value)
                g_object_unref(gptr(value))
            case .failure(let error):
                webkit_script_message_reply_return_error_message(reply, error.message)
            }
        case .batchItem(let batch, let index):
            batch.settle(index, with: result, body: body)
        }
    }

    /// The JS value (a new reference) a result resolves the Promise with, or the message it
    /// rejects it with.
    static func value(of result: Result<ScriptReply, ScriptMessageError>, body: BridgeRequest.Body?,
                      in context: UnsafeMutablePointer<JSCContext>?) -> Result<UnsafeMutablePointer<JSCValue>, ScriptMessageError> {
        let value: UnsafeMutablePointer<JSCValue>?
        switch result {
        case .success(.messageBody):
            switch body {
            case .value(let original): value = g_object_ref(gptr(original.pointer)).assumingMemoryBound(to: JSCValue.self)
            case .text(let text): value = text.withCString { jsc_value_new_string(context, $0) } // no copy made
            case .json(let json): value = jsc_value_new_from_json(context, json)
            case nil: value = jsc_value_new_null(context)
            }
        case .success(.json(let text)):
            value = jsc_value_new_from_json(context, text)
        case .failure(let error):
            return .failure(error)
        }
        guard let value else {
            jsc_context_clear_exception(context)
            return .failure(ScriptMessageError("the strategy's answer is not valid JSON"))
        }
        return .success(value)
    }

    isolated deinit {
        answer(.failure(ScriptMessageError("the container closed before answering")))
        g_object_unref(gptr(messageValue))
    }
}

extension JSONValue {
    /// The JSON value of a JavaScript value (`undefined` becomes null).
    init(jsValue: UnsafeMutablePointer<JSCValue>) throws {
        if jsc_value_is_undefined(jsValue) != 0 {
            self = .null
            return
        }
        guard let text = takeString(jsc_value_to_json(jsValue, 0)) else {
            throw ScriptMessageError("message body is not JSON-serialisable")
        }
        self = try JSONValue(parsing: text)
    }
}
