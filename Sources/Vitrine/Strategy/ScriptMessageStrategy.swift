#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A message a page posted with `window.webkit.messageHandlers.NAME.postMessage(body)`.
public struct ScriptMessage: Sendable, Equatable {
    /// The handler name: it picks the strategy.
    public var name: String
    /// The posted value as JSON text, exactly as the page sent it.
    public var bodyJSON: String
    /// The URL of the page that posted it.
    public var pageURL: URL?

    public init(name: String, body: JSONValue, pageURL: URL? = nil) {
        self.init(name: name, bodyJSON: body.jsonText, pageURL: pageURL)
    }

    /// A message as it arrives: the body stays text until a strategy reads `body`, so a
    /// strategy that passes it through (`ping`) never parses it.
    public init(name: String, bodyJSON: String, pageURL: URL? = nil) {
        self.name = name
        self.bodyJSON = bodyJSON
        self.pageURL = pageURL
    }

    /// The posted value (parsed on each access; `null` if the text is not JSON).
    public var body: JSONValue {
        (try? JSONValue(parsing: bodyJSON)) ?? .null
    }
}

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
public protocol ScriptMessageStrategy: Sendable {
    /// The message handler name this strategy answers (`window.webkit.messageHandlers.<identifier>`).
    static var identifier: String { get }

    @MainActor func handle(_ message: ScriptMessage, context: ScriptMessageContext) async throws -> JSONValue

    /// The answer as JSON text. Defaults to `handle` encoded; a strategy that can answer
    /// without building a `JSONValue` (`ping` echoes the text it got) overrides it.
    @MainActor func replyJSON(to message: ScriptMessage, context: ScriptMessageContext) async throws -> String
}

extension ScriptMessageStrategy {
    /// The identifier, reachable from an instance.
    public var identifier: String { Self.identifier }

    @MainActor
    public func replyJSON(to message: ScriptMessage, context: ScriptMessageContext) async throws -> String {
        try await handle(message, context: context).jsonText
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
