/// JSON text whose long strings travelled beside it (the SDK's `hoist` in payload.js): each
/// lifted string's place in the text is a JSON string value reading `mark` + its index
/// (1-based, in the order the strings were posted). Every string value of the text that
/// starts with the mark is such a place; a key that does is only a key.
///
/// Why: JSON.stringify and JSON.parse copy and scan a long string twice more in the page;
/// beside the text it travels as the page's own string value, and `ping` sends it back
/// untouched. Native code makes the whole text only when a strategy reads the body.
public enum HoistedJSONText {
    /// U+FFFF, a noncharacter no text needs, which JSON.stringify leaves unescaped
    /// (`hoistMark` in protocol.json, shared with payload.js).
    public static let mark: Unicode.Scalar = BridgeProtocol.hoistMark.unicodeScalars.first!
    private static let markBytes: [UInt8] = Array(String(mark).utf8)

    /// The whole JSON text: each place replaced by `quoted(index)`, the lifted string's own
    /// JSON text (quotes included). A place whose index `quoted` does not know stays as it is.
    public static func splice(_ text: String, quoted: (Int) -> String?) -> String {
        let bytes = Array(text.utf8)
        var output: [UInt8] = []
        var copiedUpTo = 0
        var index = 0
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "\"") else {
                index += 1
                continue
            }
            let end = endOfString(bytes, openingAt: index)
            if let place = place(bytes, from: index + 1, to: end - 1), isValue(bytes, after: end),
               let replacement = quoted(place) {
                output.append(contentsOf: bytes[copiedUpTo..<index])
                output.append(contentsOf: replacement.utf8)
                copiedUpTo = end
            }
            index = end
        }
        guard copiedUpTo > 0 else { return text }
        output.append(contentsOf: bytes[copiedUpTo...])
        return String(decoding: output, as: UTF8.self)
    }

    /// The index just past the closing quote of the string opening at `start`.
    private static func endOfString(_ bytes: [UInt8], openingAt start: Int) -> Int {
        var index = start + 1
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\\"): index += 2
            case UInt8(ascii: "\""): return index + 1
            default: index += 1
            }
        }
        return bytes.count
    }

    /// The index a string's contents (`from..<to`) name if they are the mark and decimal digits.
    private static func place(_ bytes: [UInt8], from start: Int, to end: Int) -> Int? {
        let digitsStart = start + markBytes.count
        guard end > digitsStart, end - digitsStart <= 9, bytes[start..<digitsStart].elementsEqual(markBytes) else { return nil }
        var value = 0
        for byte in bytes[digitsStart..<end] {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    /// Whether the string ending before `end` is a value, not a key (JSON.stringify puts
    /// no space between a key and its colon).
    private static func isValue(_ bytes: [UInt8], after end: Int) -> Bool {
        var index = end
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        return index >= bytes.count || bytes[index] != UInt8(ascii: ":")
    }
}
