#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

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

    /// A reply as published (`{"ok":…,"error":…}`); nil for anything else.
    public init?(payload: [UInt8]) {
        guard let text = String(validating: payload, as: UTF8.self), let json = try? JSONValue(parsing: text),
              case .bool(let ok)? = json["ok"]
        else { return nil }
        self.init(ok: ok, error: json["error"]?.stringValue)
    }

    /// The reply as sent (MQTT, D-Bus, `vitrine ctl`): its error redacted, as an error may
    /// quote a URL or a pushed value.
    public var json: JSONValue { .object(["ok": .bool(ok), "error": error.map { .string(Redaction.text($0)) } ?? .null]) }
}
