import CWebKitGTK
import Vitrine

/// Where one message's answer goes: WebKit's reply to that message (in the form of the
/// channel port it came on: `.text` for the shared handlers), or one call's place in the
/// reply to a channel batch (`BridgeBatchReply`, string-port forms).
enum ReplyDestination {
    case message(OpaquePointer, port: BridgePort = .text)
    case batchItem(BridgeBatchReply, index: Int)
}

/// A script message's reply, held while the strategy works: the page's Promise settles
/// when `answer` is called, exactly once (`AnswerOnce`). Dropped unanswered, it rejects the
/// Promise. The Promise resolves with the strategy's value itself (made from its JSON text
/// here), or with the message's own body for `.messageBody`.
@MainActor
final class PendingScriptReply {
    private let once: AnswerOnce<Result<ScriptReply, ScriptMessageError>>

    init(to destination: ReplyDestination, messageValue: UnsafeMutablePointer<JSCValue>, body: BridgeRequest.Body?) {
        if case .message(let reply, _) = destination { webkit_script_message_reply_ref(reply) }
        // The message's JS value: its context is where the answer value is created. Held
        // by the delivery until the one answer has gone.
        let message = JSValueReference(retaining: messageValue)
        once = AnswerOnce(unanswered: .failure(ScriptMessageError("the container closed before answering"))) { result in
            Self.send(result, body: body, messageValue: message.pointer, to: destination)
            if case .message(let reply, _) = destination { webkit_script_message_reply_unref(reply) }
        }
    }

    /// Resolves the Promise with the strategy's value or rejects it with a message.
    /// Returns false if it was answered already.
    @discardableResult
    func answer(_ result: Result<ScriptReply, ScriptMessageError>) -> Bool {
        once.answer(result)
    }

    /// Answers `destination` now: the one place a Promise is settled. Callers answer each
    /// destination once — inside the signal that brought the message
    /// (`WebPane.receiveMessage`), or through a `PendingScriptReply` that holds it.
    static func send(_ result: Result<ScriptReply, ScriptMessageError>, body: BridgeRequest.Body?,
                     messageValue: UnsafeMutablePointer<JSCValue>, to destination: ReplyDestination) {
        switch destination {
        case .message(let reply, let port):
            switch value(of: result, body: body, port: port, in: jsc_value_get_context(messageValue)) {
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
    /// rejects it with. In the forms the SDK reads back (`BridgeReply`): a string payload
    /// as a string, JSON as `{j: text}` (the page parses it: object members keep their
    /// order, which WebKit's own object replies lose), bytes as `{x: base64}`; on a
    /// channel's JSON or bytes `port`, its own kind as a bare string.
    static func value(of result: Result<ScriptReply, ScriptMessageError>, body: BridgeRequest.Body?,
                      port: BridgePort = .text,
                      in context: UnsafeMutablePointer<JSCContext>?) -> Result<UnsafeMutablePointer<JSCValue>, ScriptMessageError> {
        let value: UnsafeMutablePointer<JSCValue>?
        switch result {
        case .success(.messageBody):
            if let posted = body?.postedReply {
                value = g_object_ref(gptr(posted.pointer)).assumingMemoryBound(to: JSCValue.self)
            } else {
                switch body {
                case .text(let text): value = BridgeReply.string(text, in: context)
                case .json(let json): value = BridgeReply.json(json, in: context)
                default: value = BridgeReply.json("null", in: context)
                }
            }
        case .success(.json(let text)):
            value = port == .json ? BridgeReply.string(text, in: context) : BridgeReply.json(text, in: context)
        case .success(.bytes(let bytes)):
            value = port == .bytes ? BridgeBytes.encode(bytes, in: context) : BridgeReply.bytes(bytes, in: context)
        case .failure(let error):
            // A strategy's own Swift error resolves into `{e, c}`, which the SDK rejects
            // with: WebKit's error message could not carry the code.
            guard let code = error.code else { return .failure(error) }
            value = BridgeReply.error(error.message, code: code, in: context)
        }
        guard let value else {
            jsc_context_clear_exception(context)
            return .failure(ScriptMessageError("the bridge could not build the strategy's answer"))
        }
        return .success(value)
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
