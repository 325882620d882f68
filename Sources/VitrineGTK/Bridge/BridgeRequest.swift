import CWebKitGTK
import Vitrine

/// What the SDK posts (see `ScriptBridge`): `token + "s" + text`, `token + "j" + JSON`, or
/// `{t: token, v: text}`.
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
                  let token = takeString(jsc_value_to_string(tokenValue.pointer)).flatMap(FrameToken.init),
                  let text = JSValueReference(property: "v", of: value),
                  jsc_value_is_string(text.pointer) != 0
            else { return nil }
            self.token = token
            body = .value(text)
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
        }
    }
}

/// A reference to a JSCValue, released when the last holder goes. Used on the main thread
/// only (script messages arrive and are answered there).
final class JSValueReference: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<JSCValue>

    init(adopting pointer: UnsafeMutablePointer<JSCValue>) {
        self.pointer = pointer
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
