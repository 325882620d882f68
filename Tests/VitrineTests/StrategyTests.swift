import Foundation
import Testing
import Vitrine
import VitrineTesting

/// Answers with the value it was made with, so two instances with one identifier differ.
struct EchoStrategy: ScriptMessageStrategy {
    static let identifier = "echo"
    let reply: JSONValue
    func handle(_ message: ScriptMessage, context: ScriptMessageContext) async throws -> JSONValue {
        ["reply": reply, "body": message.body]
    }
}

struct OtherError: Error, CustomStringConvertible {
    var description: String { "the disk is on fire" }
}

struct ThrowingStrategy: ScriptMessageStrategy {
    static let identifier = "throwing"
    func handle(_ message: ScriptMessage, context: ScriptMessageContext) async throws -> JSONValue {
        if message.body["kind"]?.stringValue == "script" { throw ScriptMessageError("throwing: refused on purpose") }
        throw OtherError()
    }
}

struct SlowStrategy: ScriptMessageStrategy {
    static let identifier = "slow"
    func handle(_ message: ScriptMessage, context: ScriptMessageContext) async throws -> JSONValue {
        try await Task.sleep(for: .milliseconds(30))
        return .number(message.body.numberValue.map { $0 * 2 } ?? 0)
    }
}

/// Knows some answers at once, refuses others at once, and leaves the rest to `handle`.
struct QuickStrategy: ScriptMessageStrategy {
    static let identifier = "quick"
    @MainActor
    func handle(_ message: ScriptMessage, context: ScriptMessageContext) async throws -> JSONValue {
        "slow path"
    }
    @MainActor
    func immediateReply(to message: borrowing ScriptMessageView, context: ScriptMessageContext) throws -> ScriptReply? {
        switch message.body.stringValue {
        case "now": return .json(#""at once""#)
        case "refuse": throw OtherError()
        default: return nil
        }
    }
}

@MainActor
@Suite("Script message strategies")
struct ScriptMessageStrategiesTests {
    let host = TestHost()
    var context: ScriptMessageContext { ScriptMessageContext(host: host) }

    @Test func identifiersKeepInsertionOrder() {
        let strategies = ScriptMessageStrategies([PageStrategy(), EchoStrategy(reply: 1), UserStrategy()])
        #expect(strategies.identifiers == ["page", "echo", "user"])
        #expect(strategies.strategy(for: "echo") is EchoStrategy)
        #expect(strategies.strategy(for: "nope") == nil)
        #expect(ScriptMessageStrategies().identifiers == [])
        #expect(EchoStrategy(reply: 1).identifier == "echo", "the instance identifier is the static one")
    }

    @Test func addingAnExistingIdentifierReplacesInPlace() async throws {
        let first = ScriptMessageStrategies([PageStrategy(), EchoStrategy(reply: "old"), UserStrategy()])
        let replaced = first.adding(EchoStrategy(reply: "new"))
        #expect(replaced.identifiers == ["page", "echo", "user"], "order kept, no duplicate")
        let message = ScriptMessage(name: "echo", body: 7)
        let answer = try await replaced.dispatch(message, context: context).get()
        #expect(answer == ["reply": "new", "body": 7])
        let original = try await first.dispatch(message, context: context).get()
        #expect(original == ["reply": "old", "body": 7], "adding returns a copy; the original keeps its strategy")
    }

    @Test func anImmediateAnswerNeedsNoTaskAndTheRestGoesToHandle() async throws {
        let strategies = ScriptMessageStrategies([PingStrategy(), QuickStrategy(), EchoStrategy(reply: 1)])
        #expect(strategies.immediateReply(ScriptMessageView(ScriptMessage(name: "ping", body: [1, 2])), context: context) == .success(.messageBody))
        #expect(strategies.immediateReply(ScriptMessageView(ScriptMessage(name: "quick", body: "now")), context: context) == .success(.json(#""at once""#)))
        #expect(strategies.immediateReply(ScriptMessageView(ScriptMessage(name: "quick", body: "refuse")), context: context)
                == .failure(ScriptMessageError("quick: the disk is on fire", code: "OtherError")))
        #expect(strategies.immediateReply(ScriptMessageView(ScriptMessage(name: "quick", body: "later")), context: context) == nil)
        #expect(strategies.immediateReply(ScriptMessageView(ScriptMessage(name: "echo", body: 1)), context: context) == nil, "the default is nil")
        #expect(strategies.immediateReply(ScriptMessageView(ScriptMessage(name: "nobody", body: 1)), context: context)
                == .failure(ScriptMessageError("no strategy for message 'nobody'")))
        let later = await strategies.dispatchReply(ScriptMessage(name: "quick", body: "later"), context: context)
        #expect(later == .success(.json(#""slow path""#)))
        // `dispatchReply` gives the immediate answer when there is one.
        #expect(await strategies.dispatchReply(ScriptMessage(name: "ping", body: 5), context: context) == .success(.messageBody))
        #expect(await strategies.dispatchReply(ScriptMessage(name: "quick", body: "now"), context: context)
                == .success(.json(#""at once""#)))
    }

    @Test func initialiserWithDuplicatesKeepsTheLast() async throws {
        let strategies = ScriptMessageStrategies([EchoStrategy(reply: 1), PageStrategy(), EchoStrategy(reply: 2)])
        #expect(strategies.identifiers == ["echo", "page"])
        let answer = try await strategies.dispatch(ScriptMessage(name: "echo", body: nil), context: context).get()
        #expect(answer["reply"] == 2)
    }

    @Test func removing() async {
        let strategies = ScriptMessageStrategies([PageStrategy(), EchoStrategy(reply: 1), UserStrategy()])
        let removed = strategies.removing("echo")
        #expect(removed.identifiers == ["page", "user"])
        #expect(removed.strategy(for: "echo") == nil)
        #expect(strategies.identifiers == ["page", "echo", "user"])
        #expect(removed.removing("missing").identifiers == ["page", "user"])
        let result = await removed.dispatch(ScriptMessage(name: "echo", body: 1), context: context)
        #expect(result == .failure(ScriptMessageError("no strategy for message 'echo'")))
    }

    @Test func removedThenAddedGoesToTheEnd() {
        let strategies = ScriptMessageStrategies([PageStrategy(), EchoStrategy(reply: 1), UserStrategy()])
            .removing("echo").adding(EchoStrategy(reply: 2))
        #expect(strategies.identifiers == ["page", "user", "echo"])
    }

    @Test func unknownNameFailsWithClearMessage() async {
        let strategies = ScriptMessageStrategies([PageStrategy()])
        let result = await strategies.dispatch(ScriptMessage(name: "camera", body: [:]), context: context)
        guard case .failure(let error) = result else {
            Issue.record("expected a failure, got \(result)")
            return
        }
        #expect(error.message.contains("camera"))
        #expect(error.message.contains("no strategy"))
        #expect(error.description == error.message)
        #expect(host.untouched)
    }

    @Test func scriptMessageErrorIsPassedThrough() async {
        let strategies = ScriptMessageStrategies([ThrowingStrategy()])
        let result = await strategies.dispatch(ScriptMessage(name: "throwing", body: ["kind": "script"]), context: context)
        #expect(result == .failure(ScriptMessageError("throwing: refused on purpose")))
    }

    @Test func otherErrorsBecomeAMessageNamingTheStrategy() async {
        let strategies = ScriptMessageStrategies([ThrowingStrategy()])
        let result = await strategies.dispatch(ScriptMessage(name: "throwing", body: nil), context: context)
        #expect(result == .failure(ScriptMessageError("throwing: the disk is on fire", code: "OtherError")),
                "a struct error's code is its type's name")
    }

    @Test func asyncStrategyIsAwaited() async throws {
        let strategies = ScriptMessageStrategies([SlowStrategy()])
        #expect(try await strategies.dispatch(ScriptMessage(name: "slow", body: 21), context: context).get() == 42)
    }

    @Test func configuratorStrategyOptions() throws {
        let configuration = try Configurator()
            .strategy(PageStrategy())
            .strategy(EchoStrategy(reply: 1))
            .strategy(UserStrategy())
            .strategy(EchoStrategy(reply: 2))
            .removingStrategy("page")
            .build()
        #expect(configuration.strategies.identifiers == ["echo", "user"])
    }
}

@MainActor
@Suite("PageStrategy")
struct PageStrategyTests {
    let host = TestHost()
    var strategies: ScriptMessageStrategies { ScriptMessageStrategies([PageStrategy()]) }

    func send(_ body: JSONValue) async -> Result<JSONValue, ScriptMessageError> {
        await strategies.dispatch(ScriptMessage(name: "page", body: body), context: ScriptMessageContext(host: host))
    }

    @Test func close() async {
        #expect(await send(["action": "close"]) == .success(true))
        #expect(host.closeCalls == 1)
        #expect(host.reloadCalls == 0)
        #expect(host.titles.isEmpty)
    }

    @Test func reload() async {
        #expect(await send(["action": "reload"]) == .success(true))
        #expect(host.reloadCalls == 1)
        #expect(host.closeCalls == 0)
    }

    @Test func setTitle() async {
        #expect(await send(["action": "setTitle", "title": "Basket (2)"]) == .success(true))
        #expect(host.titles == ["Basket (2)"])
        #expect(host.closeCalls == 0 && host.reloadCalls == 0)
    }

    /// A payload of another shape is refused naming what is wrong (the action, the field,
    /// the type it must have and the one it has), and nothing is asked of the window.
    @Test(arguments: [
        (JSONValue.null, #"page: the payload must be an object {"action": …}, got null"#),
        ("close", #"page: the payload must be an object {"action": …}, got a string"#),
        (1, #"page: the payload must be an object {"action": …}, got an integer"#),
        ([], #"page: the payload must be an object {"action": …}, got an array"#),
        (["action": 1], #"page: field "action" must be a string, got an integer"#),
        (["title": "x"], #"page: field "action" is missing: one of "close", "reload", "setTitle""#),
        (["action": "setTitle"], #"page: setTitle: field "title" is missing"#),
        (["action": "setTitle", "title": 5], #"page: setTitle: field "title" must be a string, got an integer"#),
        (["action": "setTitle", "title": ["a"]], #"page: setTitle: field "title" must be a string, got an array"#),
    ] as [(JSONValue, String)])
    func badBodyIsRejected(_ body: JSONValue, _ expected: String) async {
        #expect(await send(body) == .failure(ScriptMessageError(expected)))
        #expect(host.untouched)
    }

    @Test func unknownActionIsRejected() async {
        #expect(await send(["action": "explode"])
            == .failure(ScriptMessageError(#"page: field "action" must be one of "close", "reload", "setTitle", got "explode""#)))
        #expect(await send(["action": "Close"])
            == .failure(ScriptMessageError(#"page: field "action" must be one of "close", "reload", "setTitle", got "Close""#)))
        #expect(host.untouched)
    }

    @Test func invalidBodyHelper() {
        #expect(ScriptMessageError.invalidBody("geo", expected: "{}").message == "geo: invalid message body, expected {}")
    }
}

@MainActor
@Suite("UserStrategy")
struct UserStrategyTests {
    @Test func answersTheDesktopUser() async throws {
        let answer = try await UserStrategy().handle(ScriptMessage(name: "user", body: nil),
                                                     context: ScriptMessageContext(host: TestHost()))
        #expect(answer["login"] == .string(NSUserName()))
        #expect(answer["login"]?.stringValue?.isEmpty == false)
        #expect(answer["name"]?.stringValue?.isEmpty == false, "falls back to the login when there is no full name")
        #expect(answer["locale"]?.stringValue?.isEmpty == false)
        guard case .object(let members) = answer else {
            Issue.record("expected an object, got \(answer)")
            return
        }
        #expect(Set(members.keys) == ["name", "login", "locale"])
    }

    @Test func identifiers() {
        #expect(UserStrategy.identifier == "user")
        #expect(PageStrategy.identifier == "page")
    }
}
