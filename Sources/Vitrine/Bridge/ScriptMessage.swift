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
    /// The posted value as JSON text, exactly as the page sent it (object members in the
    /// page's order, lone surrogates as `\uD800` escapes). For a byte buffer: its base64
    /// text as a JSON string.
    public var bodyJSON: String
    /// The posted bytes when the page sent a `Uint8Array` or `ArrayBuffer`, else nil.
    public var bodyBytes: [UInt8]?

    public init(name: String, body: JSONValue, pageURL: URL? = nil) {
        self.init(name: name, bodyJSON: body.jsonText, pageURL: pageURL)
        bodyBytes = body.bytesValue
    }

    /// A message whose body is already JSON text.
    public init(name: String, bodyJSON: String, pageURL: URL? = nil) {
        self.name = name
        self.pageURL = pageURL
        self.bodyJSON = bodyJSON
    }

    /// The posted value (parsed on each access, members in order; `null` if the text is
    /// not JSON), or `.bytes` for a byte buffer.
    public var body: JSONValue {
        if let bodyBytes { return .bytes(bodyBytes) }
        return (try? JSONValue(parsing: bodyJSON)) ?? .null
    }
}

