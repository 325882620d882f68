#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The typed strategies' JSON in and out.
public enum TypedPayload {
    /// `message`'s body as `Request`, or the page's rejection naming the first field that
    /// does not fit. An `ActionRequest` is read from `{"action": …}` (the error names the
    /// action too); a `BytesOr` takes bytes posted whole.
    public static func decode<Request: Decodable>(_ type: Request.Type, from message: ScriptMessage) throws(ScriptMessageError) -> Request {
        if let bytes = message.bodyBytes, let payload = Request.self as? any PostedBytesPayload.Type {
            return payload.posted(bytes) as! Request // `posted` makes a `Request`
        }
        let jsonRequest = (Request.self as? any PostedBytesPayload.Type)?.jsonRequest ?? Request.self
        guard let actions = (jsonRequest as? any ActionRequest.Type)?.actions else {
            return try decode(Request.self, text: message.bodyJSON, body: message.body, name: message.name, action: nil)
        }
        let body = message.body
        let (nested, action) = try ActionBody.nested(body, actions: actions, name: message.name)
        return try decode(Request.self, text: nested.jsonText, body: body, name: message.name, action: action)
    }

    /// `text` decoded; `action`: the error's field paths start below the action's name.
    private static func decode<Request: Decodable>(_ type: Request.Type, text: String, body: JSONValue, name: String,
                                                   action: String?) throws(ScriptMessageError) -> Request {
        do {
            return try JSONDecoder().decode(Request.self, from: Data(text.utf8))
        } catch let error as DecodingError {
            guard let action else { throw ScriptMessageError(name + ": " + PayloadShapeError.describe(error, body: body)) }
            throw ScriptMessageError(name + ": " + action + ": " + PayloadShapeError.describe(error, body: body, below: 1))
        } catch {
            throw ScriptMessageError("\(name): the payload is not JSON (\(error))")
        }
    }

    /// `response` as a JSON value, members in its encoding order.
    public static func encode<Response: Encodable>(_ response: Response, for name: String) throws(ScriptMessageError) -> JSONValue {
        do {
            return try JSONValueEncoder.encode(response)
        } catch {
            throw ScriptMessageError("\(name): the answer cannot be sent as JSON (\(error))")
        }
    }
}
