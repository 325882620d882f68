#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A strategy whose payload and answer are Swift types: the bridge decodes the page's JSON
/// into `Request` (a payload of another shape is rejected naming the field and the type it
/// must have) and sends `Response` back as JSON, members in the order it encodes them.
///
/// ```swift
/// struct AddToCart: TypedScriptMessageStrategy {
///     static let identifier = "cart.add"
///     struct Request: Decodable { var sku: Int; var quantity: Int }
///     struct Response: Encodable { var total: Int }
///     func respond(to request: Request, context: ScriptMessageContext) async throws -> Response { … }
/// }
/// ```
///
/// What `respond` throws reaches the page as an `Error` whose `code` names the error's
/// type and case (`CartError.outOfStock`), see `ScriptMessageError.code(of:)`.
/// `vitrine-types` reads these declarations to write the page's TypeScript overloads.
public protocol TypedScriptMessageStrategy: ScriptMessageStrategy {
    associatedtype Request: Decodable
    associatedtype Response: Encodable

    func respond(to request: Request, context: ScriptMessageContext) async throws -> Response
}

extension TypedScriptMessageStrategy {
    public func handle(_ message: ScriptMessage, context: ScriptMessageContext) async throws -> JSONValue {
        let request = try TypedPayload.decode(Request.self, from: message)
        return try TypedPayload.encode(try await respond(to: request, context: context), for: message.name)
    }
}

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
