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

    public var json: JSONValue { .object(["ok": .bool(ok), "error": error.map(JSONValue.string) ?? .null]) }
}
