import CWebKitGTK
import Vitrine

/// One frame's private handler for one strategy: `NAME#TOKEN`, registered in the page's
/// world once the frame has earned it (`ChannelLedger`, `ChannelPolicy.openAfter` admitted
/// calls; docs/bridge-protocol.md, "Channels").
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
/// Ports: the channel is three handlers, one per kind of payload (`BridgePort`), so that every
/// call is one bare string, the cheapest value WebKit carries: a string payload on the
/// channel's own name, JSON text on `.j` (or `[text, string, …]`, see `HoistedJSONText`),
/// base64 on `.x`; a reply there in the same form.
///
/// Lifetime: opened by `WebPane.openChannel`, closed (handlers unregistered, signals
/// disconnected) when the registry forgets that frame or the pane tears down. The pane's
/// `channels` table owns it; its signal connection's context holds it too, so a message
/// in flight never finds it gone.
final class BridgeChannel {
    /// The strategy it reaches.
    let strategy: String
    /// The frame it stands for.
    let token: FrameToken
    /// The strategy's allowed origins, checked again per message.
    let allowedOrigins: Set<Origin>
    /// Whether the SDK may send calls here together (`{b: [call, …]}`; `ChannelLedger.Opening`).
    /// Batches are answered whatever the channel (a swapped strategy may wait), but the SDK
    /// sends them only here.
    let batches: Bool
    /// Its ports' `script-message-with-reply-received::NAME` connections.
    var signalIDs: [gulong] = []

    /// The WebKit handler name of `port` (`ChannelPolicy.handlerName`).
    func handlerName(_ port: BridgePort) -> String {
        ChannelPolicy.handlerName(strategy: strategy, token: token, batches: batches, port: port)
    }

    init(strategy: String, token: FrameToken, allowedOrigins: Set<Origin>, batches: Bool) {
        self.strategy = strategy
        self.token = token
        self.allowedOrigins = allowedOrigins
        self.batches = batches
    }

    /// What one post on a channel carries.
    enum Message {
        /// One call: its payload.
        case call(BridgeRequest.Body)
        /// Calls the SDK sent together, `{b: [call, …]}`: the posted array and its length.
        case batch(JSValueReference, count: Int)
    }

    /// The message a post on `port` carries, or nil if it is not of the SDK's forms (a batch
    /// over `ChannelPolicy.batchLimit` included).
    static func message(of value: UnsafeMutablePointer<JSCValue>, on port: BridgePort) -> Message? {
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
        guard ChannelPolicy.acceptsBatch(of: count) else { return nil }
        return .batch(calls, count: count)
    }

    /// `[JSON text, string, …]`: an array of strings only, within `ChannelPolicy.acceptsHoisted`.
    private static func hoistedJSON(_ value: UnsafeMutablePointer<JSCValue>) -> BridgeRequest.Body? {
        guard jsc_value_is_array(value) != 0,
              let length = JSValueReference(property: "length", of: value).map({ Int(jsc_value_to_int32($0.pointer)) }),
              ChannelPolicy.acceptsHoisted(length: length)
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
