#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a developer reads when a page's payload does not fit a typed strategy's `Request`:
/// the field's path (`items[2].sku`), the JSON type it must have and the one it has.
enum PayloadShapeError {
    /// `below`: how many of the path's first keys are not the page's (an `ActionRequest`'s
    /// action name, which the decoder reads as a key).
    static func describe(_ error: DecodingError, body: JSONValue, below: Int = 0) -> String {
        func path(_ context: DecodingError.Context, _ last: [any CodingKey] = []) -> [any CodingKey] {
            Array((context.codingPath + last).dropFirst(below))
        }
        switch error {
        case .typeMismatch(let type, let context):
            return "\(subject(path(context))) must be \(jsonType(type)), got \(kind(at: path(context), in: body))"
        case .valueNotFound(let type, let context):
            return "\(subject(path(context))) must be \(jsonType(type)), got null"
        case .keyNotFound(let key, let context):
            return "\(subject(path(context, [key]))) is missing"
        case .dataCorrupted(let context) where context.codingPath.isEmpty && body != .null:
            // Foundation's decoder (swift 6.3) says "not valid JSON", with no path, for a
            // number its integer field cannot hold; the text itself is JSON (parsed above).
            return "a number does not fit its field (a fraction, or out of range for an integer field)"
        case .dataCorrupted(let context):
            return "\(subject(path(context))) is invalid: \(context.debugDescription)"
        @unknown default:
            return "the payload does not fit: \(error)"
        }
    }

    /// `field "a.b[0]"`, or `the payload` for the top level.
    static func subject(_ path: [any CodingKey]) -> String {
        path.isEmpty ? "the payload" : "field \"\(fieldPath(path))\""
    }

    static func fieldPath(_ path: [any CodingKey]) -> String {
        var text = ""
        for key in path {
            if let index = key.intValue { text += "[\(index)]" } else { text += (text.isEmpty ? "" : ".") + key.stringValue }
        }
        return text
    }

    /// The JSON type a Swift type decodes from, as a sentence says it.
    static func jsonType(_ type: Any.Type) -> String {
        switch type {
        case is String.Type, is Character.Type, is URL.Type: return "a string"
        case is Bool.Type: return "a boolean"
        case is any BinaryInteger.Type: return "an integer"
        case is any BinaryFloatingPoint.Type, is Decimal.Type: return "a number"
        default:
            let name = String(describing: type)
            if name.hasPrefix("Array<") || name.hasPrefix("Set<") { return "an array" }
            if name.hasPrefix("Dictionary<") { return "an object" }
            return "an object" // a keyed container: structs, classes, dictionaries
        }
    }

    /// The JSON type of the value at `path` in `body`, as a sentence says it.
    static func kind(at path: [any CodingKey], in body: JSONValue) -> String {
        var value: JSONValue? = body
        for key in path {
            switch value {
            case .object(let members): value = members[key.stringValue]
            case .array(let elements): value = key.intValue.flatMap { elements.indices.contains($0) ? elements[$0] : nil }
            default: value = nil
            }
        }
        switch value {
        case .null, nil: return "null"
        case .bool: return "a boolean"
        case .number(let number): return number.rounded() == number ? "an integer" : "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        case .bytes: return "bytes"
        }
    }
}
