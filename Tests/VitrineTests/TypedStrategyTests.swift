import Foundation
import Testing
import Vitrine
import VitrineTesting

/// A typed strategy as an app writes one: `cart.add` with its own Request, Response and errors.
struct AddToCart: TypedScriptMessageStrategy {
    static let identifier = "cart.add"

    struct Item: Codable, Equatable {
        var sku: Int
        var note: String?
    }

    struct Request: Decodable {
        var items: [Item]
        var express: Bool
        var coupon: String?
    }

    struct Response: Encodable {
        var zeta: String
        var count: Int
        var alpha: [Item]
        var price: Double
    }

    enum CartError: Error, CustomStringConvertible {
        case outOfStock(sku: Int)
        case closed
        var description: String {
            switch self {
            case .outOfStock(let sku): "sku \(sku) is out of stock"
            case .closed: "the shop is closed"
            }
        }
    }

    @MainActor
    func respond(to request: Request, context: ScriptMessageContext) async throws -> Response {
        if request.coupon == "closed" { throw CartError.closed }
        if let missing = request.items.first(where: { $0.sku == 0 }) { throw CartError.outOfStock(sku: missing.sku) }
        return Response(zeta: request.express ? "express" : "standard", count: request.items.count,
                        alpha: request.items, price: 2.5)
    }
}

@MainActor
@Suite("Typed strategies")
struct TypedStrategyTests {
    let host = TestHost()
    let strategies = ScriptMessageStrategies([AddToCart()])

    private func send(_ json: String) async -> Result<JSONValue, ScriptMessageError> {
        await strategies.dispatch(ScriptMessage(name: "cart.add", bodyJSON: json), context: ScriptMessageContext(host: host))
    }

    private func rejection(_ json: String) async -> String? {
        if case .failure(let error) = await send(json) { return error.message }
        return nil
    }

    @Test func requestIsDecodedAndResponseKeepsItsDeclarationOrder() async throws {
        let answer = try await send(#"{"express": true, "items": [{"sku": 7, "note": "gift"}, {"sku": 8}]}"#).get()
        // Foundation's JSONEncoder would write these members in its dictionary's order.
        #expect(answer.jsonText == #"{"zeta":"express","count":2,"alpha":[{"sku":7,"note":"gift"},{"sku":8}],"price":2.5}"#)
    }

    @Test func aPayloadOfTheWrongShapeIsRejectedNamingTheFieldAndTheTypes() async {
        #expect(await rejection(#"{"express": true, "items": [{"sku": "7"}]}"#)
                == #"cart.add: field "items[0].sku" must be an integer, got a string"#)
        #expect(await rejection(#"{"express": "yes", "items": []}"#)
                == #"cart.add: field "express" must be a boolean, got a string"#)
        #expect(await rejection(#"{"express": true, "items": {"sku": 1}}"#)
                == #"cart.add: field "items" must be an array, got an object"#)
        #expect(await rejection(#"{"express": true, "items": [], "coupon": 5}"#)
                == #"cart.add: field "coupon" must be a string, got an integer"#)
        #expect(await rejection(#"{"items": []}"#) == #"cart.add: field "express" is missing"#)
        #expect(await rejection(#"{"express": null, "items": []}"#)
                == #"cart.add: field "express" must be a boolean, got null"#)
        #expect(await rejection(#""just text""#) == #"cart.add: the payload must be an object, got a string"#)
        #expect(await rejection(#"{"express": true, "items": [{"sku": 1.5}]}"#)
                == "cart.add: a number does not fit its field (a fraction, or out of range for an integer field)")
        #expect(await rejection(#"{"express": tru"#)?.hasPrefix("cart.add: the payload is invalid") == true,
                "text that is not JSON (a raw post) is said so")
        #expect(host.untouched)
    }

    @Test func aThrownSwiftErrorCarriesItsTypeAndCase() async {
        #expect(await send(#"{"express": false, "items": [{"sku": 0}]}"#)
                == .failure(ScriptMessageError("cart.add: sku 0 is out of stock", code: "CartError.outOfStock")))
        #expect(await send(#"{"express": false, "items": [], "coupon": "closed"}"#)
                == .failure(ScriptMessageError("cart.add: the shop is closed", code: "CartError.closed")))
    }

    @Test func wrongShapesAndBridgeRejectionsHaveNoCode() async {
        guard case .failure(let error) = await send(#"{}"#) else {
            Issue.record("resolved")
            return
        }
        #expect(error.code == nil)
    }

    @Test func theEncoderKeepsOrderForNestedAndSpecialValues() throws {
        struct Inner: Encodable { var b = 1; var a: String? = nil; var list: [Int?] = [1, nil] }
        struct Outer: Encodable { var z = Inner(); var y = ["k": 1.25]; var x = URL(string: "https://a.example/")! }
        #expect(try JSONValueEncoder.encode(Outer()).jsonText
                == #"{"z":{"b":1,"list":[1,null]},"y":{"k":1.25},"x":"https://a.example/"}"#)
        #expect(throws: EncodingError.self) { try JSONValueEncoder.encode(["n": Double.nan]) }
    }

    @Test func theEventsLogRecordsTheCode() {
        let event = ContainerEvent.message(name: "cart.add", outcome: .rejected, error: "cart.add: the shop is closed",
                                           origin: "app://app", code: "CartError.closed")
        #expect(event.json["code"] == "CartError.closed")
        #expect(event.json["name"] == "cart.add")
    }
}
