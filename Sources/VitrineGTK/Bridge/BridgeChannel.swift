import CWebKitGTK
import Vitrine

/// One frame's private handler for one strategy: `NAME#TOKEN`, registered in the page's
/// world once the frame has called the strategy `openAfter` times from an origin it
/// accepts (see `ScriptBridge`).
///
/// Why: a message to the shared `NAME` handler must carry the frame's token, so native code
/// has to read every request to learn who sent it. A channel's name already says who (only
/// that frame knows its token, and WebKit does not list handler names to pages), so the
/// page posts its payload as it is — what a plain WebKitGTK program does — and a strategy
/// that answers with the body (`ping`) never converts it.
///
/// Why not at once: WebKit keeps each handler name as a GQuark for the life of the process,
/// so a channel (three names) costs about 300 bytes for good. Only a frame that keeps
/// calling gets one.
///
/// Ports: the channel is three handlers, one per kind of payload (`Port`), so that every
/// call is one bare string, the cheapest value WebKit carries: a string payload on the
/// channel's own name, JSON text on `.j` (or `[text, string, …]`, see `HoistedJSONText`),
/// base64 on `.x`; a reply there in the same form.
///
/// Lifetime: opened by `WebPane.openChannel`, closed (handlers unregistered, signals
/// disconnected) when the registry forgets that frame or the pane tears down. The pane's
/// `channels` table owns it; its signal connection's context holds it too, so a message
/// in flight never finds it gone.
final class BridgeChannel {
    /// Calls from one frame to one strategy, its origin allowed, before the frame gets a
    /// channel; the SDK looks for the channel on every call after as many.
    static let openAfter = 16

    /// The strategy it reaches.
    let strategy: String
    /// The frame it stands for.
    let token: FrameToken
    /// The strategy's allowed origins, checked again per message.
    let allowedOrigins: Set<Origin>
    /// Whether the SDK may send calls here together (`{b: [call, …]}`): only to a strategy
    /// that answered all the calls that opened the channel within WebKit's signal, so a
    /// batch's one reply never waits long for its slowest call. Batches are answered
    /// whatever the channel (a swapped strategy may wait), but the SDK sends them only here.
    let batches: Bool
    /// `strategy#token`, with `+` after it when the channel `batches` (how the SDK learns
    /// that): the string port's WebKit handler name, and the others' stem.
    let handlerName: String
    /// Its ports' `script-message-with-reply-received::NAME` connections.
    var signalIDs: [gulong] = []

    /// What a post on each of a channel's handlers carries, and the form of a reply there.
    enum Port: String, CaseIterable {
        /// The channel's own name: a string payload (or the object forms, and batches).
        case text = ""
        /// `.j`: JSON text, or `[text, string, …]` with its long strings beside it.
        case json = ".j"
        /// `.x`: a byte buffer's base64 text.
        case bytes = ".x"
    }

    /// The WebKit handler name of `port`.
    func handlerName(_ port: Port) -> String {
        handlerName + port.rawValue
    }

    init(strategy: String, token: FrameToken, allowedOrigins: Set<Origin>, batches: Bool) {
        self.strategy = strategy
        self.token = token
        self.allowedOrigins = allowedOrigins
        self.batches = batches
        handlerName = strategy + "#" + token.hexDigits + (batches ? "+" : "")
    }

    /// Posts the SDK keeps unanswered on one channel before further calls wait and go
    /// together as one batch, when a post is answered.
    static let unansweredPosts = 2
    /// The most calls one batch may carry; the SDK sends more as several.
    static let batchLimit = 1024

    /// What one post on a channel carries.
    enum Message {
        /// One call: its payload.
        case call(BridgeRequest.Body)
        /// Calls the SDK sent together, `{b: [call, …]}`: the posted array and its length.
        case batch(JSValueReference, count: Int)
    }

    /// The most strings one hoisted JSON post may carry beside its text.
    static let hoistedLimit = 4096

    /// The message a post on `port` carries, or nil if it is not of the SDK's forms (a batch
    /// of more than `batchLimit` calls included).
    static func message(of value: UnsafeMutablePointer<JSCValue>, on port: Port) -> Message? {
        switch port {
        case .text: break
        case .json:
            if jsc_value_is_string(value) != 0 {
                let text = JSValueReference(retaining: value)
                return .call(.jsonText(text, posted: text))
            }
            return hoistedJSON(value).map(Message.call)
        case .bytes:
            guard jsc_value_is_string(value) != 0 else { return nil }
            let base64 = JSValueReference(retaining: value)
            return .call(.bytes(base64, posted: base64))
        }
        if let body = body(of: value) { return .call(body) }
        guard jsc_value_is_object(value) != 0,
              let calls = JSValueReference(property: "b", of: value),
              jsc_value_is_array(calls.pointer) != 0,
              let length = JSValueReference(property: "length", of: calls.pointer)
        else { return nil }
        let count = Int(jsc_value_to_int32(length.pointer))
        guard (0...batchLimit).contains(count) else { return nil }
        return .batch(calls, count: count)
    }

    /// `[JSON text, string, …]`: an array of strings only, at most `hoistedLimit` beside the text.
    private static func hoistedJSON(_ value: UnsafeMutablePointer<JSCValue>) -> BridgeRequest.Body? {
        guard jsc_value_is_array(value) != 0,
              let length = JSValueReference(property: "length", of: value).map({ Int(jsc_value_to_int32($0.pointer)) }),
              (1...hoistedLimit + 1).contains(length)
        else { return nil }
        for index in 0..<length {
            guard let part = jsc_value_object_get_property_at_index(value, guint(index)) else { return nil }
            defer { g_object_unref(gptr(part)) }
            guard jsc_value_is_string(part) != 0 else { return nil }
        }
        return .hoistedJSON(JSValueReference(retaining: value), count: length)
    }

    /// What the SDK posts for one call on the string port: a string payload as it is, bytes as `{x: base64}`,
    /// anything else as `{j: JSON text}` (checked by `JSON.stringify` in the page, as on the
    /// shared handler). Nil for anything else.
    static func body(of value: UnsafeMutablePointer<JSCValue>) -> BridgeRequest.Body? {
        if jsc_value_is_string(value) != 0 { return .value(JSValueReference(retaining: value)) }
        guard jsc_value_is_object(value) != 0 else { return nil }
        if let text = JSValueReference(string: "j", of: value) {
            return .jsonText(text, posted: JSValueReference(retaining: value))
        }
        if let base64 = JSValueReference(string: "x", of: value) {
            return .bytes(base64, posted: JSValueReference(retaining: value))
        }
        return nil
    }
}
