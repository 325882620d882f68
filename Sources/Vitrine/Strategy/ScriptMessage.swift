#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A message a page posted with `window.webkit.messageHandlers.NAME.postMessage(body)`.
public struct ScriptMessage: Sendable, Equatable {
    /// The handler name: it picks the strategy.
    public var name: String
    /// The URL of the page that posted it.
    public var pageURL: URL?
    /// The posted value as JSON text, exactly as the page sent it.
    public var bodyJSON: String

    public init(name: String, body: JSONValue, pageURL: URL? = nil) {
        self.init(name: name, bodyJSON: body.jsonText, pageURL: pageURL)
    }

    /// A message whose body is already JSON text.
    public init(name: String, bodyJSON: String, pageURL: URL? = nil) {
        self.name = name
        self.pageURL = pageURL
        self.bodyJSON = bodyJSON
    }

    /// The posted value (parsed on each access; `null` if the text is not JSON).
    public var body: JSONValue {
        (try? JSONValue(parsing: bodyJSON)) ?? .null
    }
}

/// A message as a strategy's fast path (`immediateReply`) sees it: only for the length of
/// that call, inside WebKit's signal.
///
/// Its body becomes JSON text only if the strategy reads it, so one that answers with the
/// body itself (`ping`) never pays for the conversion. It cannot be copied or kept (it is
/// borrowed): the bridge's source for the body is valid only during the call.
public struct ScriptMessageView: ~Copyable {
    public let name: String
    public let pageURL: URL?
    private let makeBodyJSON: () -> String

    /// A view whose body `makeBodyJSON` makes each time it is read, during the call.
    public init(name: String, pageURL: URL?, makeBodyJSON: @escaping () -> String) {
        self.name = name
        self.pageURL = pageURL
        self.makeBodyJSON = makeBodyJSON
    }

    /// A view of a whole message.
    public init(_ message: ScriptMessage) {
        let text = message.bodyJSON
        self.init(name: message.name, pageURL: message.pageURL, makeBodyJSON: { text })
    }

    /// The posted value as JSON text.
    public var bodyJSON: String { makeBodyJSON() }

    /// The posted value (`null` if it is not JSON).
    public var body: JSONValue { (try? JSONValue(parsing: bodyJSON)) ?? .null }

    /// The message itself, its body made into text now: what the strategy's `handle` gets.
    public var message: ScriptMessage { ScriptMessage(name: name, bodyJSON: bodyJSON, pageURL: pageURL) }
}
