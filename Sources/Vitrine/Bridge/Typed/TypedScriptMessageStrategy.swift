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

