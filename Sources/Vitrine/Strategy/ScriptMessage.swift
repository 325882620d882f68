#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization

/// A message a page posted with `window.webkit.messageHandlers.NAME.postMessage(body)`.
public struct ScriptMessage: Sendable, Equatable {
    /// The handler name: it picks the strategy.
    public var name: String
    /// The URL of the page that posted it.
    public var pageURL: URL?
    private var bodyText: BodyText

    public init(name: String, body: JSONValue, pageURL: URL? = nil) {
        self.init(name: name, bodyJSON: body.jsonText, pageURL: pageURL)
    }

    /// A message whose body is already JSON text: it stays text until a strategy reads `body`.
    public init(name: String, bodyJSON: String, pageURL: URL? = nil) {
        self.name = name
        self.pageURL = pageURL
        bodyText = BodyText(.text(bodyJSON))
    }

    /// A message whose body becomes JSON text only when something reads `bodyJSON` or
    /// `body`: a strategy that answers with the body itself (`ping`) never pays for the
    /// conversion. `makeBodyJSON` runs at most once, on the thread that first reads the
    /// body; the bridge calls `settleBody()` before it lets go of the message.
    public init(name: String, pageURL: URL?, makeBodyJSON: @escaping @Sendable () -> String) {
        self.name = name
        self.pageURL = pageURL
        bodyText = BodyText(.pending(makeBodyJSON))
    }

    /// The posted value as JSON text, exactly as the page sent it.
    public var bodyJSON: String {
        get { bodyText.value }
        set { bodyText = BodyText(.text(newValue)) }
    }

    /// The posted value (parsed on each access; `null` if the text is not JSON).
    public var body: JSONValue {
        (try? JSONValue(parsing: bodyJSON)) ?? .null
    }

    /// For the bridge, once the strategy has answered: if a copy of this message lives on
    /// elsewhere, its body is made into text now (where the bridge's source is still
    /// valid); either way the source is released here, not wherever the last copy ends.
    public mutating func settleBody() {
        if isKnownUniquelyReferenced(&bodyText) {
            bodyText.release()
        } else {
            _ = bodyText.value
        }
    }

    public static func == (lhs: ScriptMessage, rhs: ScriptMessage) -> Bool {
        lhs.name == rhs.name && lhs.pageURL == rhs.pageURL && lhs.bodyJSON == rhs.bodyJSON
    }
}

/// A message body's JSON text, made on first use.
private final class BodyText: Sendable {
    enum State {
        case text(String)
        case pending(@Sendable () -> String)
        /// Released unread by its only owner: nothing can read it any more.
        case released
    }

    private let state: Mutex<State>

    init(_ state: State) {
        self.state = Mutex(state)
    }

    var value: String {
        state.withLock { state in
            switch state {
            case .text(let text):
                return text
            case .pending(let make):
                let text = make()
                state = .text(text)
                return text
            case .released:
                return "null"
            }
        }
    }

    func release() {
        state.withLock { state in
            if case .pending = state { state = .released }
        }
    }
}
