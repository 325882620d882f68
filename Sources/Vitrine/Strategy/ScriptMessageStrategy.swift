#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a strategy can use besides the message.
@MainActor
public struct ScriptMessageContext {
    public let host: any ContainerHost
    /// The origins' capabilities: the gate in front of every strategy that needs one.
    public let capabilities: CapabilityGrants

    public init(host: any ContainerHost, capabilities: CapabilityGrants = CapabilityGrants()) {
        self.host = host
        self.capabilities = capabilities
    }

    /// Throws the page's rejection unless `strategy` needs no capability or the page that
    /// posted `pageURL` was granted it.
    func admit(_ strategy: any ScriptMessageStrategy, pageURL: URL?) throws(ScriptMessageError) {
        guard let capability = type(of: strategy).capability else { return }
        try capabilities.check(capability, for: pageURL)
    }
}

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

/// A strategy's answer on its way back to the page.
public enum ScriptReply: Sendable, Equatable {
    /// This JSON text: the page's Promise resolves with its value, object members in the
    /// text's order.
    case json(String)
    /// These bytes: the page's Promise resolves with a `Uint8Array`.
    case bytes([UInt8])
    /// The message's own body, exactly as the page posted it: the bridge hands back the
    /// value it received without converting it (`ping`).
    case messageBody
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

/// Why a message was rejected. Its description is what the page's Promise rejects with.
public struct ScriptMessageError: Error, Equatable, CustomStringConvertible {
    public let message: String
    /// What a strategy's own Swift error was, `TypeName.caseName` (see `code(of:)`): the
    /// page's `Error` carries it as `code`. Nil for the bridge's own rejections.
    public let code: String?

    public init(_ message: String, code: String? = nil) {
        self.message = message
        self.code = code
    }

    public var description: String { message }

    /// The body is not of the shape the strategy expects.
    public static func invalidBody(_ name: String, expected: String) -> ScriptMessageError {
        ScriptMessageError("\(name): invalid message body, expected \(expected)")
    }
}
