#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A JSON value: what crosses the bridge between a page and native code.
///
/// Exact both ways: objects keep their members in order (`JSONObject`), numbers are JSON
/// numbers (a whole number prints without a fraction, as in JavaScript), strings are
/// strings. Text is read by `JSONTextReader` and written by `jsonText` (JSONValue+Text),
/// not by Foundation: `JSONSerialization` and `JSONDecoder` give objects as dictionaries,
/// which lose the order, and no JSON library that keeps it is available to this package.
///
/// `.bytes` is a byte buffer (a `Uint8Array` or `ArrayBuffer` in the page): the bridge
/// carries it as bytes when it is a whole message or reply. Inside JSON text it is written
/// as a base64 string.
///
/// A Swift `String` cannot hold a lone UTF-16 surrogate (JavaScript strings can): reading
/// JSON text, `\uD800` alone becomes U+FFFD. A strategy that must keep such strings reads
/// the message's exact text (`ScriptMessage.bodyJSON`) instead; `ping` answers with it.
public enum JSONValue: Sendable, Equatable, Hashable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)
    case bytes([UInt8])

    /// Parses JSON text (fragments such as a bare string or number included), keeping
    /// object members in order. Throws `JSONTextError` (with the byte offset) otherwise.
    public init(parsing text: String) throws {
        self = try JSONTextReader.parse(text)
    }

    /// The JSON value `value` encodes to (Foundation's encoder, keys sorted).
    init<Value: Encodable>(encoding value: Value) throws {
        let data = try JSONEncoder.compactSorted.encode(value)
        self = try JSONTextReader.parse(String(decoding: data, as: UTF8.self))
    }

    /// `self[key]` of an object; nil for a missing key or anything but an object.
    public subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    public var numberValue: Double? {
        if case .number(let value) = self { return value }
        return nil
    }

    public var bytesValue: [UInt8]? {
        if case .bytes(let value) = self { return value }
        return nil
    }

    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    public var objectValue: JSONObject? {
        if case .object(let value) = self { return value }
        return nil
    }
}

extension JSONEncoder {
    /// How Vitrine writes JSON: compact, keys sorted (the same value always reads the
    /// same, in logs and tests), slashes as they are. One shared encoder: its options
    /// never change, and making one per call is most of the cost of a short line.
    public static let compactSorted: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
}

extension JSONValue: Codable {
    /// Through a Foundation `Decoder` (members in the decoder's order, which for
    /// `JSONDecoder` is not the text's): prefer `init(parsing:)`.
    public init(from decoder: Decoder) throws {
        if let container = try? decoder.container(keyedBy: MemberKey.self) {
            var members = JSONObject()
            for key in container.allKeys { members[key.stringValue] = try container.decode(JSONValue.self, forKey: key) }
            self = .object(members)
            return
        }
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else {
            self = .array(try container.decode([JSONValue].self))
        }
    }

    public func encode(to encoder: Encoder) throws {
        if case .object(let members) = self {
            var container = encoder.container(keyedBy: MemberKey.self)
            for (key, value) in members { try container.encode(value, forKey: MemberKey(key)) }
            return
        }
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value):
            // Whole numbers print without a fraction, as JavaScript would.
            if value.rounded() == value, abs(value) < 9.007_199_254_740_992e15 {
                try container.encode(Int64(value))
            } else {
                try container.encode(value)
            }
        case .string(let value): try container.encode(value)
        case .array(let values): try container.encode(values)
        case .bytes(let bytes): try container.encode(JSONValue.base64(bytes))
        case .object: break // above
        }
    }

    private struct MemberKey: CodingKey {
        let stringValue: String
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.init(stringValue) }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }

    /// `bytes` as base64 text (how `.bytes` is written inside JSON).
    static func base64(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByDictionaryLiteral, ExpressibleByArrayLiteral, ExpressibleByNilLiteral, ExpressibleByFloatLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// Members in the literal's order (a repeated key keeps its first place, last value).
    public init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(JSONObject(elements)) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(nilLiteral: ()) { self = .null }
}
