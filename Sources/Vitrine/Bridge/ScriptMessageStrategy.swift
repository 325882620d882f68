#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How one kind of script message is answered: a Strategy chosen by its identifier.
///
/// Strategies know nothing of each other. `handle` is the one entry point: what it returns
/// resolves the page's Promise with that JSON value (object members in order; `.bytes` as
/// a `Uint8Array`); what it throws rejects it with the
/// error's description. `immediateReply` is an optional fast path for a strategy that
/// knows its answer without waiting for anything.
/// Strategies run on the main actor, where the message arrives: a conforming type is
/// main-actor isolated by itself, so no message hops off the main actor and back.
@MainActor
public protocol ScriptMessageStrategy: Sendable {
    /// The message handler name this strategy answers (`window.webkit.messageHandlers.<identifier>`).
    nonisolated static var identifier: String { get }

    /// The capability a page must be granted (`[capabilities]`) before this strategy
    /// sees its message; nil (the default): none.
    nonisolated static var capability: Capability? { get }

    func handle(_ message: ScriptMessage, context: ScriptMessageContext) async throws -> JSONValue

    /// The answer when the strategy knows it at once, else nil (the default): `handle`
    /// then answers. The bridge calls it inside WebKit's signal, with no task and nothing
    /// held; the message is only borrowed for the call. `ping` answers here with
    /// `.messageBody`: the page's value goes back untouched, never converted.
    func immediateReply(to message: borrowing ScriptMessageView, context: ScriptMessageContext) throws -> ScriptReply?
}

extension ScriptReply {
    /// How `value` goes back: bytes as bytes, anything else as JSON text.
    public init(_ value: JSONValue) {
        if case .bytes(let bytes) = value { self = .bytes(bytes) } else { self = .json(value.jsonText) }
    }
}

extension ScriptMessageStrategy {
    /// The identifier, reachable from an instance.
    public nonisolated var identifier: String { Self.identifier }

    public nonisolated static var capability: Capability? { nil }

    public func immediateReply(to message: borrowing ScriptMessageView, context: ScriptMessageContext) throws -> ScriptReply? {
        nil
    }
}

