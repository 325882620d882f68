import CWebKitGTK

/// The forms of a reply the SDK reads (`decodeReply` in payload.js), built in the
/// message's JS context: `{j: JSON text}`, `{x: base64}` and `{e: message, c: code}`. (A string payload goes back
/// as the string itself.)
///
/// Why not the value itself: WebKitGTK carries an object in a reply as a dictionary, so
/// its members reach the page in any order; a string travels intact. Why not a
/// `Uint8Array`: WebKitGTK 2.50's messages carry one as a plain object with a key per
/// byte (checked with a C echo), thousands of times slower than a base64 string, which
/// the page turns into bytes with the engine's own `Uint8Array.fromBase64`.
enum BridgeReply {
    /// `{j: text}`, a new reference.
    static func json(_ text: String, in context: UnsafeMutablePointer<JSCContext>?) -> UnsafeMutablePointer<JSCValue>? {
        string(text, in: context).flatMap { wrapped("j", $0, in: context) }
    }

    /// `text` as a JS string, a new reference (also JSON text's reply form on a channel's JSON port).
    static func string(_ text: String, in context: UnsafeMutablePointer<JSCContext>?) -> UnsafeMutablePointer<JSCValue>? {
        text.withCString { jsc_value_new_string(context, $0) }
    }

    /// `{x: base64}`, a new reference.
    static func bytes(_ bytes: [UInt8], in context: UnsafeMutablePointer<JSCContext>?) -> UnsafeMutablePointer<JSCValue>? {
        guard let string = BridgeBytes.encode(bytes, in: context) else { return nil }
        return wrapped("x", string, in: context)
    }

    /// `{e: message, c: code}`, a new reference: a strategy's own error, which the SDK
    /// throws as an `Error` with `code` (WebKit's rejection carries only a message).
    static func error(_ message: String, code: String, in context: UnsafeMutablePointer<JSCContext>?) -> UnsafeMutablePointer<JSCValue>? {
        guard let text = string(message, in: context),
              let object = wrapped("e", text, in: context) else { return nil }
        if let codeText = string(code, in: context) {
            jsc_value_object_set_property(object, "c", codeText)
            g_object_unref(gptr(codeText))
        }
        return object
    }

    /// `{key: value}`, taking `value`'s reference.
    private static func wrapped(_ key: String, _ value: UnsafeMutablePointer<JSCValue>,
                                in context: UnsafeMutablePointer<JSCContext>?) -> UnsafeMutablePointer<JSCValue>? {
        defer { g_object_unref(gptr(value)) }
        guard let object = jsc_value_new_object(context, nil, nil) else { return nil }
        jsc_value_object_set_property(object, key, value)
        return object
    }
}

/// Bytes to and from the base64 text the SDK sends them as, with GLib's codec.
enum BridgeBytes {
    /// The bytes of a JS string of base64 text (the SDK's `toBase64`).
    static func decode(_ base64: UnsafeMutablePointer<JSCValue>) -> [UInt8] {
        guard let text = jsc_value_to_string(base64) else { return [] }
        defer { g_free(text) }
        var length: gsize = 0
        guard let decoded = g_base64_decode(text, &length) else { return [] }
        defer { g_free(decoded) }
        return Array(UnsafeBufferPointer(start: decoded, count: Int(length)))
    }

    /// A new JS string with `bytes` as base64 text.
    static func encode(_ bytes: [UInt8], in context: UnsafeMutablePointer<JSCContext>?) -> UnsafeMutablePointer<JSCValue>? {
        let text = bytes.withUnsafeBufferPointer { g_base64_encode($0.baseAddress, gsize($0.count)) }
        guard let text else { return nil }
        defer { g_free(text) }
        return jsc_value_new_string(context, text)
    }
}
