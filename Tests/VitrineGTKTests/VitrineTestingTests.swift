import Foundation
import Testing
import Vitrine
import VitrineTestingGTK

// How an embedder tests its own handler and strategy with the `VitrineTesting` product: a
// real WebKitGTK view on local pages (`WebTestHarness`), awaiting the events they cause.
// Only public API here (no `@testable`), as in an embedder's own test target.

/// An embedder's handler: no page of its app may open the admin pages.
struct NoAdminPages: NavigationActionHandler {
    let name = "no-admin"
    func handle(_ action: NavigationAction, context: NavigationContext) async -> HandlerResult {
        action.url.path.hasPrefix("/admin") ? .decide(.cancel) : .pass
    }
}

/// An embedder's strategy: greets whoever the page names.
struct Greeting: ScriptMessageStrategy {
    static let identifier = "greeting"
    func handle(_ message: ScriptMessage, context: ScriptMessageContext) async throws -> JSONValue {
        guard let name = message.body["name"]?.stringValue, !name.isEmpty else {
            throw ScriptMessageError.invalidBody(Self.identifier, expected: #"{"name": non-empty string}"#)
        }
        return .string("hello, \(name)")
    }
}

extension WebKitTests {
    @Suite @MainActor
    struct VitrineTestingTests {
        static let page = "<!doctype html><title>home</title>home"

        @Test func anEmbeddersHandlerAndStrategyAreTestedOnARealView() async throws {
            let harness = try WebTestHarness(pages: ["index.html": Self.page, "admin/index.html": "<!doctype html>admin"],
                                             configure: { $0.prependingHandler(NoAdminPages()).strategy(Greeting()) })
            defer { harness.close() }
            try await harness.open("index.html")

            // The handler: the page's own navigation to the admin pages is refused; the test
            // awaits the decision's event rather than polling for it.
            let admin = WebTestHarness.url("admin/index.html").absoluteString
            _ = try await harness.container.evaluateAsync("location.href = '/admin/index.html'; return true;")
            let refusal = try await harness.fixture.next(where: {
                if case let .navigation(url, handler, _, _, _, _) = $0 { return url == admin && handler == "no-admin" }
                return false
            })
            if case let .navigation(_, _, policy, _, _, _) = refusal { #expect(policy == .cancel) }
            try await harness.fixture.roundTrip()
            #expect(harness.container.currentURL == WebTestHarness.url("index.html"), "the page stayed")

            // The strategy: answers a good body, refuses a bad one (the page's Promise rejects).
            #expect(try await harness.container.evaluateAsync("return await vitrine.invoke('greeting', {name: 'Ada'});") == "hello, Ada")
            let refused = try await harness.container.evaluateAsync("""
                try { await vitrine.invoke('greeting', {name: ''}); return 'resolved'; } catch (e) { return e.message; }
                """)
            #expect(refused.stringValue?.contains("non-empty string") == true, "\(refused)")
        }
    }
}
