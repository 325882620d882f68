#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a strategy can use besides the message.
@MainActor
public struct ScriptMessageContext {
    public let host: any ContainerHost

    public init(host: any ContainerHost) {
        self.host = host
    }
}

/// How one kind of script message is answered: a Strategy chosen by its identifier.
///
/// Strategies know nothing of each other. What `handle` returns resolves the page's
/// Promise with that JSON value; what it throws rejects it with the error's description.
///
/// Mark implementations `@MainActor` (the requirements are): a witness without it is
/// nonisolated, so every message would hop to the global executor and back — two extra
/// main-loop wake-ups and a later reply — before the strategy even starts.
public protocol ScriptMessageStrategy: Sendable {
    /// The message handler name this strategy answers (`window.webkit.messageHandlers.<identifier>`).
    static var identifier: String { get }

    @MainActor func handle(_ message: ScriptMessage, context: ScriptMessageContext) async throws -> JSONValue

    /// The answer as the bridge sends it back. Defaults to `immediateReply` when it has
    /// one, else `handle` encoded as JSON; a strategy that can answer without building a
    /// `JSONValue` (JSON text it already has, or `.messageBody`) overrides it.
    @MainActor func reply(to message: ScriptMessage, context: ScriptMessageContext) async throws -> ScriptReply

    /// The answer when the strategy knows it without waiting for anything, else nil (the
    /// default): the bridge then answers within WebKit's signal, without starting a task
    /// for `reply`. `ping` answers here (`.messageBody`: the page's value goes back untouched).
    @MainActor func immediateReply(to message: ScriptMessage, context: ScriptMessageContext) throws -> ScriptReply?
}

/// A strategy's answer on its way back to the page.
public enum ScriptReply: Sendable, Equatable {
    /// This JSON text: the page's Promise resolves with its value.
    case json(String)
    /// The message's own body, exactly as the page posted it: the bridge hands back the
    /// value it received without converting it (`ping`).
    case messageBody
}

extension ScriptMessageStrategy {
    /// The identifier, reachable from an instance.
    public var identifier: String { Self.identifier }

    @MainActor
    public func reply(to message: ScriptMessage, context: ScriptMessageContext) async throws -> ScriptReply {
        if let answer = try immediateReply(to: message, context: context) { return answer }
        return .json(try await handle(message, context: context).jsonText)
    }

    @MainActor
    public func immediateReply(to message: ScriptMessage, context: ScriptMessageContext) throws -> ScriptReply? {
        nil
    }
}

/// Why a message was rejected. Its description is what the page's Promise rejects with.
public struct ScriptMessageError: Error, Equatable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }

    /// The body is not of the shape the strategy expects.
    public static func invalidBody(_ name: String, expected: String) -> ScriptMessageError {
        ScriptMessageError("\(name): invalid message body, expected \(expected)")
    }
}
