/// Why JSON text could not be read: what was wrong, and at which byte (UTF-8 offset).
public struct JSONTextError: Error, Equatable, CustomStringConvertible {
    public let reason: String
    public let offset: Int

    public var description: String { "invalid JSON at byte \(offset): \(reason)" }
}

/// Reads JSON text (RFC 8259, any value at the top) into a `JSONValue`, keeping object
/// members in order. Hand-written because Foundation's readers give objects as
/// dictionaries (see `JSONValue`).
///
/// Hostile input gets an error, never a crash: nesting deeper than `maximumDepth` is
/// refused; a lone `\uD800`-style surrogate escape becomes U+FFFD (a Swift string cannot
/// hold it); a repeated key keeps its first place and last value, as in `JSON.parse`.
struct JSONTextReader {
    static let maximumDepth = 512

    private let bytes: UnsafeBufferPointer<UInt8>
    private var position = 0
    private var depth = 0

    private init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    static func parse(_ text: String) throws -> JSONValue {
        var text = text
        return try text.withUTF8 { bytes in
            var reader = JSONTextReader(bytes)
            reader.skipWhitespace()
            let value = try reader.readValue()
            reader.skipWhitespace()
            guard reader.position == bytes.count else { throw reader.error("unexpected text after the value") }
            return value
        }
    }

    private func error(_ reason: String) -> JSONTextError {
        JSONTextError(reason: reason, offset: position)
    }

    private var current: UInt8? { position < bytes.count ? bytes[position] : nil }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { position += 1 }
    }

    private mutating func readValue() throws -> JSONValue {
        guard let byte = current else { throw error("unexpected end of text") }
        switch byte {
        case UInt8(ascii: "{"): return try nested { try $0.readObject() }
        case UInt8(ascii: "["): return try nested { try $0.readArray() }
        case UInt8(ascii: "\""): return .string(try readString())
        case UInt8(ascii: "t"): try readWord("true"); return .bool(true)
        case UInt8(ascii: "f"): try readWord("false"); return .bool(false)
        case UInt8(ascii: "n"): try readWord("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try readNumber())
        default: throw error("unexpected character '\(Unicode.Scalar(byte))'")
        }
    }

    private mutating func nested(_ read: (inout JSONTextReader) throws -> JSONValue) throws -> JSONValue {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maximumDepth else { throw error("nested deeper than \(Self.maximumDepth) levels") }
        return try read(&self)
    }

    private mutating func readWord(_ word: String) throws {
        for expected in word.utf8 {
            guard current == expected else { throw error("expected '\(word)'") }
            position += 1
        }
    }

    private mutating func expect(_ byte: UInt8, _ what: String) throws {
        guard current == byte else { throw error("expected \(what)") }
        position += 1
    }

    private mutating func readObject() throws -> JSONValue {
        var members = JSONObject()
        try readMembers { members[$0] = $1 }
        return .object(members)
    }

    /// Reads an object (at `{`), telling `add` each member in the order written.
    private mutating func readMembers(_ add: (String, JSONValue) -> Void) throws {
        position += 1 // {
        skipWhitespace()
        if current == UInt8(ascii: "}") { position += 1; return }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else { throw error("expected a member name in quotes") }
            let key = try readString()
            skipWhitespace()
            try expect(UInt8(ascii: ":"), "':' after a member name")
            skipWhitespace()
            add(key, try readValue())
            skipWhitespace()
            if current == UInt8(ascii: ",") { position += 1; continue }
            try expect(UInt8(ascii: "}"), "',' or '}' in an object")
            return
        }
    }

    /// The members of JSON text that is one object, every one as written: none merged with
    /// another, not even two keys a Swift `String` compares equal (`"café"` in NFC and in
    /// NFD), which `JSONObject` would merge. For stores whose keys are byte-exact.
    static func members(ofObject text: String) throws -> [(key: String, value: JSONValue)] {
        var text = text
        return try text.withUTF8 { bytes in
            var reader = JSONTextReader(bytes)
            reader.skipWhitespace()
            guard reader.current == UInt8(ascii: "{") else { throw reader.error("expected an object") }
            var members: [(key: String, value: JSONValue)] = []
            try reader.readMembers { members.append(($0, $1)) }
            reader.skipWhitespace()
            guard reader.position == bytes.count else { throw reader.error("unexpected text after the value") }
            return members
        }
    }

    private mutating func readArray() throws -> JSONValue {
        position += 1 // [
        var values: [JSONValue] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") { position += 1; return .array(values) }
        while true {
            skipWhitespace()
            values.append(try readValue())
            skipWhitespace()
            if current == UInt8(ascii: ",") { position += 1; continue }
            try expect(UInt8(ascii: "]"), "',' or ']' in an array")
            return .array(values)
        }
    }

    private mutating func readNumber() throws -> Double {
        let start = position
        if current == UInt8(ascii: "-") { position += 1 }
        guard let first = current, isDigit(first) else { throw error("expected a digit") }
        position += 1
        if first != UInt8(ascii: "0") { skipDigits() }
        if current == UInt8(ascii: ".") {
            position += 1
            guard let digit = current, isDigit(digit) else { throw error("expected a digit after '.'") }
            skipDigits()
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            position += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { position += 1 }
            guard let digit = current, isDigit(digit) else { throw error("expected a digit in the exponent") }
            skipDigits()
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        guard let value = Double(text) else { throw JSONTextError(reason: "not a number", offset: start) }
        return value
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private mutating func skipDigits() {
        while let byte = current, isDigit(byte) { position += 1 }
    }

    private mutating func readString() throws -> String {
        position += 1 // opening quote
        var plainStart = position
        var result = ""
        func flushPlain(upTo end: Int) {
            if end > plainStart {
                result += String(decoding: UnsafeBufferPointer(rebasing: bytes[plainStart..<end]), as: UTF8.self)
            }
        }
        while true {
            guard let byte = current else { throw error("unterminated string") }
            switch byte {
            case UInt8(ascii: "\""):
                flushPlain(upTo: position)
                position += 1
                return result
            case UInt8(ascii: "\\"):
                flushPlain(upTo: position)
                position += 1
                try readEscape(into: &result)
                plainStart = position
            case 0..<0x20:
                throw error("control character in a string (escape it)")
            default:
                position += 1
            }
        }
    }

    private mutating func readEscape(into result: inout String) throws {
        guard let byte = current else { throw error("unterminated escape") }
        position += 1
        switch byte {
        case UInt8(ascii: "\""): result += "\""
        case UInt8(ascii: "\\"): result += "\\"
        case UInt8(ascii: "/"): result += "/"
        case UInt8(ascii: "b"): result += "\u{08}"
        case UInt8(ascii: "f"): result += "\u{0C}"
        case UInt8(ascii: "n"): result += "\n"
        case UInt8(ascii: "r"): result += "\r"
        case UInt8(ascii: "t"): result += "\t"
        case UInt8(ascii: "u"):
            let unit = try readHex4()
            if (0xD800..<0xDC00).contains(unit), position + 1 < bytes.count,
               bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") {
                let save = position
                position += 2
                let low = try readHex4()
                if (0xDC00..<0xE000).contains(low) {
                    let scalar = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
                    result.unicodeScalars.append(Unicode.Scalar(scalar)!)
                    return
                }
                position = save // a lone high surrogate, then another escape: read that on its own
            }
            result.unicodeScalars.append(Unicode.Scalar(UInt32(unit)) ?? "\u{FFFD}")
        default:
            position -= 1
            throw error("unknown escape '\\\(Unicode.Scalar(byte))'")
        }
    }

    private mutating func readHex4() throws -> UInt16 {
        guard position + 4 <= bytes.count else { throw error("expected four hex digits after \\u") }
        var value: UInt16 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error("expected four hex digits after \\u")
            }
            value = value << 4 | UInt16(digit)
            position += 1
        }
        return value
    }
}
