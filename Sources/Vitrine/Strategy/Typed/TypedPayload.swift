#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The typed strategies' JSON in and out.
public enum TypedPayload {
    /// `message`'s body as `Request`, or the page's rejection naming the first field that
    /// does not fit.
    public static func decode<Request: Decodable>(_ type: Request.Type, from message: ScriptMessage) throws(ScriptMessageError) -> Request {
        do {
            return try JSONDecoder().decode(Request.self, from: Data(message.bodyJSON.utf8))
        } catch let error as DecodingError {
            throw ScriptMessageError(message.name + ": " + PayloadShapeError.describe(error, body: message.body))
        } catch {
            throw ScriptMessageError("\(message.name): the payload is not JSON (\(error))")
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
