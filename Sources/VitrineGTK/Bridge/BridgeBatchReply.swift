import CWebKitGTK
import Vitrine

/// The one WebKit reply to a channel batch (`{b: [call, …]}`, see `BridgeChannel`): each
/// call settles its own place, exactly once, and when the last has, the reply goes.
///
/// What the SDK gets back: an array with each call's value when all resolved — the posted
/// array itself when every answer is the call's own payload (`ping`), so nothing is
/// converted — or `{v: [values], e: {index: message}}` when some were rejected.
/// Dropped before every call has settled, it rejects the whole batch.
@MainActor
final class BridgeBatchReply {
    /// How a call was answered.
    private enum Answer: Sendable {
        /// With its own payload, the posted value itself.
        case posted(JSValueReference)
        case value(JSValueReference)
        case rejected(String)
    }

    /// What the one WebKit reply says.
    private enum Outcome: Sendable {
        case answers([Answer?])
        case rejected(String)
    }

    /// The one reply (`AnswerOnce`): dropped before every call has settled, it rejects.
    private let once: AnswerOnce<Outcome>
    /// The posted array of calls (its context makes the answers).
    private let calls: JSValueReference
    private var answers: [Answer?]
    private var unsettled: Int

    init(reply: OpaquePointer, calls: JSValueReference, count: Int) {
        let reply = webkit_script_message_reply_ref(reply)!
        self.calls = calls
        once = AnswerOnce(unanswered: .rejected("the container closed before answering")) { outcome in
            defer { webkit_script_message_reply_unref(reply) }
            switch outcome {
            case .rejected(let message): webkit_script_message_reply_return_error_message(reply, message)
            case .answers(let answers): Self.send(answers, calls: calls, to: reply)
            }
        }
        answers = Array(repeating: nil, count: count)
        unsettled = count
        if count == 0 { once.answer(.answers([])) }
    }

    /// Settles call `index`; a second answer for the same call is ignored.
    func settle(_ index: Int, with result: Result<ScriptReply, ScriptMessageError>, body: BridgeRequest.Body?) {
        guard !once.isAnswered, answers.indices.contains(index), answers[index] == nil else { return }
        if case .success(.messageBody) = result, let posted = body?.postedReply {
            answers[index] = .posted(posted)
        } else {
            switch PendingScriptReply.value(of: result, body: body, in: jsc_value_get_context(calls.pointer)) {
            case .success(let value): answers[index] = .value(JSValueReference(adopting: value))
            case .failure(let error): answers[index] = .rejected(error.message)
            }
        }
        unsettled -= 1
        if unsettled == 0 { once.answer(.answers(answers)) }
    }

    /// Rejects every call of the batch with one message (the frame may not call at all).
    func reject(_ message: String) {
        once.answer(.rejected(message))
    }

    private static func send(_ answers: [Answer?], calls: JSValueReference, to reply: OpaquePointer) {
        let allPosted = answers.allSatisfy { if case .posted = $0 { true } else { false } }
        if allPosted {
            webkit_script_message_reply_return_value(reply, calls.pointer)
            return
        }
        let context = jsc_value_get_context(calls.pointer)
        // Borrowed from `answers` (and `undefined`), which outlive the array made from it.
        let values = g_ptr_array_sized_new(guint(answers.count))
        var errors: JSValueReference?
        var undefined: JSValueReference?
        for (index, answer) in answers.enumerated() {
            switch answer {
            case .posted(let value), .value(let value):
                g_ptr_array_add(values, gptr(value.pointer))
            case .rejected(let message):
                if undefined == nil { undefined = jsc_value_new_undefined(context).map(JSValueReference.init(adopting:)) }
                g_ptr_array_add(values, undefined.map { gptr($0.pointer) })
                if errors == nil { errors = jsc_value_new_object(context, nil, nil).map(JSValueReference.init(adopting:)) }
                if let errors, let text = BridgeReply.string(message, in: context) {
                    jsc_value_object_set_property(errors.pointer, String(index), text)
                    g_object_unref(gptr(text))
                }
            case nil:
                break // not reached: sent once every call has settled
            }
        }
        let array = jsc_value_new_array_from_garray(context, values).map(JSValueReference.init(adopting:))
        g_ptr_array_unref(values)
        guard let array else {
            webkit_script_message_reply_return_error_message(reply, "the bridge could not build the batch's answer")
            return
        }
        guard let errors else { return webkit_script_message_reply_return_value(reply, array.pointer) }
        guard let wrapper = jsc_value_new_object(context, nil, nil).map(JSValueReference.init(adopting:)) else {
            webkit_script_message_reply_return_error_message(reply, "the bridge could not build the batch's answer")
            return
        }
        jsc_value_object_set_property(wrapper.pointer, "v", array.pointer)
        jsc_value_object_set_property(wrapper.pointer, "e", errors.pointer)
        webkit_script_message_reply_return_value(reply, wrapper.pointer)
    }
}
