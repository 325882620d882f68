#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a remote asks a kiosk to do, whether through the session bus (`vitrine ctl`) or
/// an MQTT broker (`PREFIX/ID/cmd/NAME`). Parsing checks every payload: a bad one is an
/// error to answer, never a crash.
public enum RemoteCommand: Sendable, Equatable {
    case reload
    case home
    /// The playlist's next page (issue 14).
    case next
    /// Goes through the kiosk's navigation chain.
    case navigate(URL)
    /// Over MQTT the PNG is published on `screenshot`; over the bus it is written to `path`.
    case screenshot(path: String?)
    case display(on: Bool)
    /// A whole TOML configuration to check, apply and keep or roll back.
    case config(String)

    public static let names = ["reload", "home", "next", "navigate", "screenshot", "display", "config"]

    /// The largest payload each command accepts, in bytes.
    public static func payloadLimit(of name: String) -> Int {
        switch name {
        case "config": 256 * 1024
        case "navigate": 8 * 1024
        default: 1024
        }
    }

    public var name: String {
        switch self {
        case .reload: "reload"
        case .home: "home"
        case .next: "next"
        case .navigate: "navigate"
        case .screenshot: "screenshot"
        case .display: "display"
        case .config: "config"
        }
    }

    /// The command `name` with `payload` (as received over MQTT), or why it is refused.
    public static func parse(name: String, payload: [UInt8]) -> Result<RemoteCommand, RemoteCommandError> {
        guard names.contains(name) else {
            return .failure(RemoteCommandError("unknown command '\(name.prefix(64))'; expected one of: \(names.joined(separator: ", "))"))
        }
        let limit = payloadLimit(of: name)
        guard payload.count <= limit else {
            return .failure(RemoteCommandError("the \(name) payload is \(payload.count) bytes; at most \(limit) are accepted"))
        }
        guard let text = String(validating: payload, as: UTF8.self), !text.unicodeScalars.contains("\0") else {
            return .failure(RemoteCommandError("the \(name) payload is not UTF-8 text"))
        }
        let trimmed = String(text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
        switch name {
        case "reload": return .success(.reload)
        case "home": return .success(.home)
        case "next": return .success(.next)
        case "screenshot": return .success(.screenshot(path: nil))
        case "navigate": return navigate(trimmed).map { .navigate($0) }
        case "display":
            switch trimmed.lowercased() {
            case "on": return .success(.display(on: true))
            case "off": return .success(.display(on: false))
            default: return .failure(RemoteCommandError(#"display takes "on" or "off", got '\#(trimmed.prefix(64))'"#))
            }
        default:
            guard !trimmed.isEmpty else { return .failure(RemoteCommandError("the config payload is empty; send a whole TOML configuration")) }
            return .success(.config(text))
        }
    }

    /// An absolute URL with a scheme and no spaces or control characters.
    public static func navigate(_ text: String) -> Result<URL, RemoteCommandError> {
        guard !text.isEmpty, !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0 == " " }),
              let url = URL(string: text), let scheme = url.scheme, !scheme.isEmpty
        else {
            return .failure(RemoteCommandError("navigate takes an absolute URL such as https://example.org/, got '\(text.prefix(200))'"))
        }
        return .success(url)
    }
}

public struct RemoteCommandError: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// The answer to one command, published on `reply/<command>`: `{"ok":…,"error":…}`.
public struct RemoteReply: Sendable, Equatable {
    public var ok: Bool
    public var error: String?

    public static let success = RemoteReply(ok: true, error: nil)
    public static func failure(_ error: String) -> RemoteReply { RemoteReply(ok: false, error: error) }

    public init(ok: Bool, error: String?) {
        self.ok = ok
        self.error = error
    }

    public var json: JSONValue { .object(["ok": .bool(ok), "error": error.map(JSONValue.string) ?? .null]) }
}
