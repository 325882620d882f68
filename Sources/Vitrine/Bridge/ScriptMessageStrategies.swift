#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The configured strategies, keyed by identifier, in the order they were added.
///
/// Adding a strategy whose identifier exists replaces the old one in place.
public struct ScriptMessageStrategies: Sendable {
    private var order: [String] = []
    private var byIdentifier: [String: any ScriptMessageStrategy] = [:]

    public init(_ strategies: [any ScriptMessageStrategy] = []) {
        for strategy in strategies { self = adding(strategy) }
    }

    /// The identifiers, in order: the message handlers registered on the page.
    public var identifiers: [String] { order }

    public func strategy(for identifier: String) -> (any ScriptMessageStrategy)? {
        byIdentifier[identifier]
    }

    /// A copy with `strategy` added, replacing any strategy with the same identifier.
    public func adding(_ strategy: any ScriptMessageStrategy) -> ScriptMessageStrategies {
        var copy = self
        if copy.byIdentifier.updateValue(strategy, forKey: strategy.identifier) == nil {
            copy.order.append(strategy.identifier)
        }
        return copy
    }

    public func removing(_ identifier: String) -> ScriptMessageStrategies {
        var copy = self
        copy.byIdentifier[identifier] = nil
        copy.order.removeAll { $0 == identifier }
        return copy
    }

    /// Answers `message` with the strategy its name picks. Never throws: every message
    /// gets exactly one outcome, a value or an error message.
    @MainActor
    public func dispatch(_ message: ScriptMessage, context: ScriptMessageContext) async -> Result<JSONValue, ScriptMessageError> {
        await answer(message, context: context) { try await $0.handle(message, context: $1) }
    }

    /// Like `dispatch`, with the answer as the bridge sends it back: the fast path's answer
    /// when it has one, else `handle`'s value as JSON text (or bytes).
    @MainActor
    public func dispatchReply(_ message: ScriptMessage, context: ScriptMessageContext) async -> Result<ScriptReply, ScriptMessageError> {
        if let answer = immediateReply(ScriptMessageView(message), context: context) { return answer }
        return await answer(message, context: context) { ScriptReply(try await $0.handle(message, context: $1)) }
    }

    /// The answer if the strategy gives it at once (`immediateReply`), an error if no
    /// strategy has the message's name, or nil: then `dispatchReply` answers.
    @MainActor
    public func immediateReply(_ message: borrowing ScriptMessageView, context: ScriptMessageContext) -> Result<ScriptReply, ScriptMessageError>? {
        guard let strategy = byIdentifier[message.name] else { return .failure(Self.noStrategy(message.name)) }
        do {
            try context.admit(strategy, pageURL: message.pageURL)
            return try strategy.immediateReply(to: message, context: context).map(Result.success)
        } catch {
            return .failure(Self.scriptMessageError(error, name: message.name))
        }
    }

    /// Picks the strategy and turns whatever it throws into a `ScriptMessageError`.
    /// `run` is main-actor isolated: a plain async closure would make every message hop
    /// to the global executor and back (two main-loop wake-ups) before the strategy runs.
    @MainActor
    private func answer<Answer>(
        _ message: ScriptMessage, context: ScriptMessageContext, with run: @MainActor (any ScriptMessageStrategy, ScriptMessageContext) async throws -> Answer
    ) async -> Result<Answer, ScriptMessageError> {
        guard let strategy = byIdentifier[message.name] else { return .failure(Self.noStrategy(message.name)) }
        var context = context
        context.pageURL = message.pageURL
        do {
            try context.admit(strategy, pageURL: message.pageURL)
            return .success(try await run(strategy, context))
        } catch {
            return .failure(Self.scriptMessageError(error, name: message.name))
        }
    }

    private static func noStrategy(_ name: String) -> ScriptMessageError {
        ScriptMessageError("no strategy for message '\(name)'")
    }

    /// What the page's Promise rejects with: a `ScriptMessageError` as it is, anything else
    /// prefixed with the message's name, with its code (`TypeName.caseName`).
    private static func scriptMessageError(_ error: any Error, name: String) -> ScriptMessageError {
        (error as? ScriptMessageError) ?? ScriptMessageError("\(name): \(error)", code: ScriptMessageError.code(of: error))
    }
}
