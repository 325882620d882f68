import CWebKitGTK
import Vitrine

/// A script message's reply, held while the strategy works: the page's Promise settles
/// when `answer` is called, exactly once. Dropped unanswered, it rejects the Promise.
/// The Promise resolves with the strategy's value itself (made from its JSON text here),
/// or with the message's own body for `.messageBody`.
@MainActor
final class PendingScriptReply {
    private var reply: OpaquePointer?
    /// The message's JS value: its context is where the answer value is created.
    private let messageValue: UnsafeMutablePointer<JSCValue>
    /// The body as posted, for `.messageBody`.
    private let body: BridgeRequest.Body?

    init(reply: OpaquePointer, messageValue: UnsafeMutablePointer<JSCValue>, body: BridgeRequest.Body?) {
        self.reply = webkit_script_message_reply_ref(reply)
        self.messageValue = messageValue
        self.body = body
        g_object_ref(gptr(messageValue))
    }

    /// Resolves the Promise with the strategy's value or rejects it with a message.
    /// Returns false if it was answered already.
    @discardableResult
    func answer(_ result: Result<ScriptReply, ScriptMessageError>) -> Bool {
        guard let reply else { return false }
        self.reply = nil
        defer { webkit_script_message_reply_unref(reply) }
        Self.send(result, body: body, messageValue: messageValue, to: reply)
        return true
    }

    /// Answers `reply` now: the one place a Promise is settled. Callers answer each reply
    /// once — inside the signal that brought it (`WebPane.receiveMessage`), or through a
    /// `PendingScriptReply` that holds it.
    static func send(_ result: Result<ScriptReply, ScriptMessageError>, body: BridgeRequest.Body?,
                     messageValue: UnsafeMutablePointer<JSCValue>, to reply: OpaquePointer) {
        let context = jsc_value_get_context(messageValue)
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
            webkit_script_message_reply_return_error_message(reply, error.message)
            return
        }
        if let value {
            webkit_script_message_reply_return_value(reply, value)
            g_object_unref(gptr(value))
        } else {
            jsc_context_clear_exception(context)
            webkit_script_message_reply_return_error_message(reply, "the strategy's answer is not valid JSON")
        }
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
