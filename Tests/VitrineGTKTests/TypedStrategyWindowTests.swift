import Foundation
import Testing
import Vitrine
@testable import VitrineGTK
import VitrineTestingGTK

/// A typed strategy as an app writes one, for the real page below.
struct GreetStrategy: TypedScriptMessageStrategy {
    static let identifier = "greet"
    struct Request: Decodable { var name: String; var times: Int }
    struct Response: Encodable { var text: String; var length: Int }
    enum GreetError: Error, CustomStringConvertible {
        case tooMany(Int)
        var description: String {
            switch self { case .tooMany(let times): "\(times) greetings are too many" }
        }
    }

    @MainActor
    func respond(to request: Request, context: ScriptMessageContext) async throws -> Response {
        guard request.times <= 3 else { throw GreetError.tooMany(request.times) }
        let text = Array(repeating: "hello \(request.name)", count: request.times).joined(separator: ", ")
        return Response(text: text, length: text.count)
    }
}

extension WebKitTests {
    /// A page calling a typed strategy through the SDK: its answer, a payload of the wrong
    /// shape, a Swift error with its code, on the shared handler and on a frame's channel.
    @Suite @MainActor
    struct TypedStrategyWindowTests {
        @Test func aTypedStrategyAnswersRejectsWrongShapesAndCarriesErrorCodes() async throws {
            let page = "<!doctype html><html><head><title>typed</title></head><body>typed</body></html>"
            let harness = try WebTestHarness(pages: ["index.html": page], configure: { $0.strategy(GreetStrategy()) })
            defer { harness.close() }
            try await harness.open("index.html")
            let results = try await harness.container.evaluateAsync("""
                const out = {};
                const answer = await vitrine.invoke('greet', {name: 'Ada', times: 2});
                out.answer = JSON.stringify(answer);
                try { await vitrine.invoke('greet', {name: 'Ada', times: 'two'}); out.shape = 'resolved'; }
                catch (e) { out.shape = e.message; out.shapeCode = e.code === undefined ? 'none' : e.code; }
                try { await vitrine.invoke('greet', {name: 'Ada', times: 9}); out.thrown = 'resolved'; }
                catch (e) { out.thrown = e.message; out.code = e.code; out.isError = e instanceof Error; }
                // Past the channel's threshold the calls go on the frame's own channel.
                for (let i = 0; i < 20; i++) {
                  try { await vitrine.invoke('greet', {name: 'x', times: 4}); } catch (e) { out.channelCode = e.code; }
                }
                return out;
                """)
            #expect(results["answer"] == #"{"text":"hello Ada, hello Ada","length":20}"#)
            #expect(results["shape"] == #"greet: field "times" must be an integer, got a string"#)
            #expect(results["shapeCode"] == "none")
            #expect(results["thrown"] == "greet: 9 greetings are too many")
            #expect(results["code"] == "GreetError.tooMany")
            #expect(results["isError"] == true)
            #expect(results["channelCode"] == "GreetError.tooMany")
            let codes = harness.events.events.compactMap { event -> String? in
                if case let .message("greet", .rejected, _, _, code?) = event { return code }
                return nil
            }
            #expect(codes.count == 21, "the events log records each thrown error's code with the strategy")
            #expect(Set(codes) == ["GreetError.tooMany"])
        }
    }
}
