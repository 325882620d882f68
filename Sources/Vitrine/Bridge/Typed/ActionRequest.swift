#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A typed strategy's requests as one enum: the page posts `{"action": NAME, …fields}`,
/// and each case is an action whose labelled associated values are its fields (optional
/// ones may be absent). The capabilities' requests are such enums.
///
/// ```swift
/// enum Request: ActionRequest {
///     case readText
///     case writeText(text: String)
///     static let actions = ["readText", "writeText"]
/// }
/// ```
///
/// The synthesized `Decodable` of an enum reads `{NAME: {…fields}}`; `TypedPayload` hands
/// it the page's fields in that form, and names the action and the field in its errors.
/// `vitrine-types` writes each case as `{ action: "NAME"; field: type; … }`.
public protocol ActionRequest: Decodable, Sendable {
    /// The actions' names (the cases'), listed in the error for an unknown one.
    static var actions: [String] { get }
}

/// A typed strategy's payload that is either bytes the page posted whole (a `Uint8Array`
/// or an `ArrayBuffer`, which travel on the bridge's bytes port) or a JSON `Request`.
public enum BytesOr<Request: Decodable & Sendable>: Decodable, Sendable {
    case bytes([UInt8])
    case request(Request)

    /// From JSON: always the request (bytes never come through a `Decoder`).
    public init(from decoder: any Decoder) throws {
        self = .request(try Request(from: decoder))
    }
}

/// A `Request` type that takes bytes posted whole (`BytesOr`).
protocol PostedBytesPayload {
    static func posted(_ bytes: [UInt8]) -> Self
    /// The JSON request's type.
    static var jsonRequest: any Decodable.Type { get }
}

extension BytesOr: PostedBytesPayload {
    static func posted(_ bytes: [UInt8]) -> BytesOr { .bytes(bytes) }
    static var jsonRequest: any Decodable.Type { Request.self }
}

/// `{"action": NAME, …fields}` as the synthesized enum decoding reads it.
enum ActionBody {
    /// The body rewritten to `{NAME: {…fields}}` and the action's name, or the page's
    /// rejection naming what is wrong with `action`.
    static func nested(_ body: JSONValue, actions: [String], name: String) throws(ScriptMessageError) -> (body: JSONValue, action: String) {
        guard case .object(let members) = body else {
            throw ScriptMessageError("\(name): the payload must be an object {\"action\": …}, got \(PayloadShapeError.kind(at: [], in: body))")
        }
        let expected = actions.map { JSONValue.string($0).jsonText }.joined(separator: ", ")
        guard let value = members["action"] else { throw ScriptMessageError("\(name): field \"action\" is missing: one of \(expected)") }
        guard let action = value.stringValue else {
            throw ScriptMessageError("\(name): field \"action\" must be a string, got \(PayloadShapeError.kind(at: [], in: value))")
        }
        guard actions.contains(action) else {
            throw ScriptMessageError("\(name): field \"action\" must be one of \(expected), got \(value.jsonText)")
        }
        var fields = members
        fields["action"] = nil
        return (.object(JSONObject([(action, .object(fields))])), action)
    }
}
