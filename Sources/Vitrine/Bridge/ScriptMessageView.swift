#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

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
    private let makeBodyBytes: (() -> [UInt8])?

    /// A view whose body `makeBodyJSON` makes each time it is read, during the call; for a
    /// byte buffer, `makeBodyBytes` makes its bytes.
    public init(name: String, pageURL: URL?, makeBodyJSON: @escaping () -> String,
                makeBodyBytes: (() -> [UInt8])? = nil) {
        self.name = name
        self.pageURL = pageURL
        self.makeBodyJSON = makeBodyJSON
        self.makeBodyBytes = makeBodyBytes
    }

    /// A view of a whole message.
    public init(_ message: ScriptMessage) {
        let text = message.bodyJSON
        let bytes = message.bodyBytes
        self.init(name: message.name, pageURL: message.pageURL, makeBodyJSON: { text },
                  makeBodyBytes: bytes.map { bytes in { bytes } })
    }

    /// The posted value as JSON text (a byte buffer's: its base64 text as a JSON string).
    public var bodyJSON: String { makeBodyJSON() }

    /// Whether the page posted a byte buffer.
    public var hasBytes: Bool { makeBodyBytes != nil }

    /// The posted value (`null` if it is not JSON), or `.bytes` for a byte buffer.
    public var body: JSONValue {
        if let makeBodyBytes { return .bytes(makeBodyBytes()) }
        return (try? JSONValue(parsing: bodyJSON)) ?? .null
    }

    /// The message itself, its body made into text (or bytes) now: what the strategy's
    /// `handle` gets.
    public var message: ScriptMessage {
        if let makeBodyBytes { return ScriptMessage(name: name, body: .bytes(makeBodyBytes()), pageURL: pageURL) }
        return ScriptMessage(name: name, bodyJSON: bodyJSON, pageURL: pageURL)
    }
}
