extension JSONValue {
    /// Compact JSON text, object members in their order (JSON.stringify's output for the
    /// same value). Numbers that are not finite print as `null`, as in JavaScript; `.bytes`
    /// as a base64 string.
    public var jsonText: String {
        var text = ""
        write(to: &text)
        return text
    }

    private func write(to text: inout String) {
        switch self {
        case .null: text += "null"
        case .bool(let value): text += value ? "true" : "false"
        case .number(let value): text += Self.numberText(value)
        case .string(let value): Self.writeString(value, to: &text)
        case .bytes(let bytes): Self.writeString(Self.base64(bytes), to: &text)
        case .array(let values):
            text += "["
            for (index, value) in values.enumerated() {
                if index > 0 { text += "," }
                value.write(to: &text)
            }
            text += "]"
        case .object(let members):
            text += "{"
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { text += "," }
                Self.writeString(key, to: &text)
                text += ":"
                value.write(to: &text)
            }
            text += "}"
        }
    }

    /// A number as JavaScript prints it where that matters: whole numbers without a
    /// fraction, `-0` as `0`, non-finite as `null`. (Swift writes large or tiny ones with
    /// an exponent, `1e+21`, which JSON reads as the same number.)
    static func numberText(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded(), abs(value) < 1e21 {
            if abs(value) < 9.007_199_254_740_992e15 { return String(Int64(value)) }
        }
        return String(value)
    }

    /// A JSON string literal: `"` and `\` escaped, control characters as `\n`, `\t` … or
    /// `\u00XX`; everything else as it is (JSON allows it, JSON.parse reads it).
    static func writeString(_ value: String, to text: inout String) {
        text += "\""
        var plainStart = value.utf8.startIndex
        var index = plainStart
        let utf8 = value.utf8
        while index != utf8.endIndex {
            let byte = utf8[index]
            if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                text += Substring(utf8[plainStart..<index])
                switch byte {
                case UInt8(ascii: "\""): text += "\\\""
                case UInt8(ascii: "\\"): text += "\\\\"
                case 0x0A: text += "\\n"
                case 0x0D: text += "\\r"
                case 0x09: text += "\\t"
                case 0x08: text += "\\b"
                case 0x0C: text += "\\f"
                default:
                    let hex = Array("0123456789abcdef".utf8)
                    text += "\\u00" + String(decoding: [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]], as: UTF8.self)
                }
                index = utf8.index(after: index)
                plainStart = index
            } else {
                index = utf8.index(after: index)
            }
        }
        text += Substring(utf8[plainStart..<index])
        text += "\""
    }
}
