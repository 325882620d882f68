import CWebKitGTK
import Vitrine

/// A script message's reply, held while the strategy works: the page's Promise settles
/// when `answer` is called, exactly once. Dropped unanswered, it rejects the Promise.
/// A value travels as JSON text, which the page's SDK parses.
@MainActor
final class PendingScriptReply {
    private var reply: OpaquePointer?
    /// The message's JS value: its context is where the answer value is created.
    private let messageValue: UnsafeMutablePointer<JSCValue>

    init(reply: OpaquePointer, messageValue: UnsafeMutablePointer<JSCValue>) {
        self.reply = webkit_script_message_reply_ref(reply)
        self.messageValue = messageValue
        g_object_ref(gptr(messageValue))
    }

    /// Resolves the Promise with a JSON value or rejects it with a message.
    /// Returns false if it was answered already.
    @discardableResult
    func answer(_ result: Result<String, ScriptMessageError>) -> Bool {
        guard let reply else { return false }
        self.reply = nil
        defer { webkit_script_message_reply_unref(reply) }
        switch result {
        case .success(let json):
            // The bridge hands the page JSON text; the page parses it once.
            let jsValue = jsc_value_new_string(jsc_value_get_context(messageValue), json)!
            webkit_script_message_reply_return_value(reply, jsValue)
            g_object_unref(gptr(jsValue))
        case .failure(let error):
            webkit_script_message_reply_return_error_message(reply, error.message)
        }
        return true
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
