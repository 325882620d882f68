import CWebKitGTK
import Vitrine

/// What the SDK posts (see `ScriptBridge`): `token + "s" + text`, `token + "j" + JSON`,
/// `{t: token, v: text}`, or `{t: token, x: base64}` (bytes).
struct BridgeRequest {
    let token: FrameToken
    let body: Body

    enum Body {
        /// A string payload, as text.
        case text(String)
        /// Any other payload, as JSON text.
        case json(String)
        /// A long string payload, still the page's own value.
        case value(JSValueReference)
        /// JSON text, still the page's own string; `posted` is the `{j: text}` it came in,
        /// which is also how a reply with the same value looks.
        case jsonText(JSValueReference, posted: JSValueReference)
        /// A byte buffer's base64 text, still the page's own string; `posted` is the value
        /// it came in (`{x: base64}`, or the bare string on a channel's bytes port), which
        /// is also the reply form for the same bytes where it came.
        case bytes(JSValueReference, posted: JSValueReference)
        /// `[JSON text, string, …]` on a channel's JSON port: the text with its long strings
        /// beside it (`HoistedJSONText`); `count` is the array's length.
        case hoistedJSON(JSValueReference, count: Int)

        /// The posted value that, sent back as it is, gives the page this same payload
        /// (`ping`): nil for the forms that came inside the request string.
        var postedReply: JSValueReference? {
            switch self {
            case .text, .json: nil
            case .value(let value), .jsonText(_, let value), .bytes(_, let value), .hoistedJSON(let value, _): value
            }
        }
    }

    /// The request a message's value carries, or nil if it is not of the SDK's forms.
    ///
    /// One conversion for the common forms: the value's string form is read in place, the
    /// token parsed from its bytes, and only the payload becomes a Swift string. (An object's
    /// string form is `[object Object]`: values arrive as plain data, with no `toString` of
    /// their own, so a long string inside one is never converted.)
    init?(_ value: UnsafeMutablePointer<JSCValue>) {
        guard let cString = jsc_value_to_string(value) else { return nil }
        defer { g_free(cString) }
        let bytes = UnsafeRawPointer(cString).assumingMemoryBound(to: UInt8.self)
        if let token = FrameToken(hexDigits: bytes) {
            // The token's 32 digits are not NUL, so the kind byte after them can be read.
            let payload = { String(cString: bytes + FrameToken.hexLength + 1) }
            switch bytes[FrameToken.hexLength] {
            case UInt8(ascii: "s"): body = .text(payload())
            case UInt8(ascii: "j"): body = .json(payload())
            default: return nil
            }
            self.token = token
        } else if jsc_value_is_object(value) != 0 {
            guard let tokenValue = JSValueReference(property: "t", of: value),
                  jsc_value_is_string(tokenValue.pointer) != 0,
                  let token = takeString(jsc_value_to_string(tokenValue.pointer)).flatMap(FrameToken.init)
            else { return nil }
            if let text = JSValueReference(string: "v", of: value) {
                body = .value(text)
            } else if let base64 = JSValueReference(string: "x", of: value) {
                body = .bytes(base64, posted: JSValueReference(retaining: value))
            } else {
                return nil
            }
            self.token = token
        } else {
            return nil
        }
    }

    /// Makes the body's JSON text when it is first read: by a strategy's fast path, inside
    /// the signal, or before `handle` runs.
    static func makeBodyJSON(_ body: Body) -> () -> String {
        switch body {
        case .text(let text): return { JSONValue.string(text).jsonText }
        case .json(let json): return { json }
        case .value(let value): return { takeString(jsc_value_to_json(value.pointer, 0)) ?? "null" }
        case .jsonText(let text, _): return { takeString(jsc_value_to_string(text.pointer)) ?? "null" }
        case .bytes(let base64, _): return { takeString(jsc_value_to_json(base64.pointer, 0)) ?? "null" }
        case .hoistedJSON(let parts, let count): return { hoistedText(parts.pointer, count: count) }
        }
    }

    /// The whole JSON text of `[JSON text, string, …]`: each lifted string as JSC quotes it
    /// (NUL, lone surrogates and all), in its place.
    private static func hoistedText(_ parts: UnsafeMutablePointer<JSCValue>, count: Int) -> String {
        func part(_ index: Int, json: Bool) -> String? {
            guard index < count, let value = jsc_value_object_get_property_at_index(parts, guint(index)) else { return nil }
            defer { g_object_unref(gptr(value)) }
            return takeString(json ? jsc_value_to_json(value, 0) : jsc_value_to_string(value))
        }
        guard let text = part(0, json: false) else { return "null" }
        return HoistedJSONText.splice(text) { index in index > 0 ? part(index, json: true) : nil }
    }

    /// Makes the bytes of a byte buffer's body when they are first read; nil for other bodies.
    static func makeBodyBytes(_ body: Body) -> (() -> [UInt8])? {
        guard case .bytes(let base64, _) = body else { return nil }
        return { BridgeBytes.decode(base64.pointer) }
    }
}

/// A reference to a JSCValue, released when the last holder goes. Used on the main thread
/// only (script messages arrive and are answered there).
final class JSValueReference: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<JSCValue>

    init(adopting pointer: UnsafeMutablePointer<JSCValue>) {
        self.pointer = pointer
    }

    /// Another reference to `pointer`.
    convenience init(retaining pointer: UnsafeMutablePointer<JSCValue>) {
        self.init(adopting: g_object_ref(gptr(pointer)).assumingMemoryBound(to: JSCValue.self))
    }

    /// `object[name]` if it is a string, else nil.
    convenience init?(string name: String, of object: UnsafeMutablePointer<JSCValue>) {
        guard let value = jsc_value_object_get_property(object, name) else { return nil }
        guard jsc_value_is_string(value) != 0 else {
            g_object_unref(gptr(value))
            return nil
        }
        self.init(adopting: value)
    }

    /// `object[name]` (undefined when it has no such property); nil if WebKit gives nothing.
    convenience init?(property name: String, of object: UnsafeMutablePointer<JSCValue>) {
        guard let value = jsc_value_object_get_property(object, name) else { return nil }
        self.init(adopting: value)
    }

    deinit {
        g_object_unref(gptr(pointer))
    }
}
