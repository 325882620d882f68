#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `storage`: `{"action": "get" | "remove", "key"}`, `{"action": "set", "key", "value"}`,
/// `{"action": "keys" | "clear"}`. `get` answers the value or null; `keys` the keys; the
/// others true.
public struct StorageStrategy: ScriptMessageStrategy {
    public static let identifier = Capability.storage.rawValue
    public static let capability: Capability? = .storage

    public nonisolated let store: KeyValueStore

    public nonisolated init(store: KeyValueStore) {
        self.store = store
    }

    public func handle(_ message: ScriptMessage, context: ScriptMessageContext) async throws -> JSONValue {
        let body = message.body
        func key() throws(ScriptMessageError) -> String {
            guard let key = body["key"]?.stringValue else { throw ScriptMessageError("storage: \(body["action"]?.stringValue ?? "") needs key, a string") }
            return key
        }
        switch body["action"]?.stringValue {
        case "get": return try store.value(try key())
        case "set":
            guard let value = body["value"] else { throw ScriptMessageError("storage: set needs value") }
            try store.set(try key(), value)
        case "remove": try store.remove(try key())
        case "keys": return .array(try store.keys().map(JSONValue.string))
        case "clear": try store.clear()
        default:
            throw ScriptMessageError.invalidBody(Self.identifier, expected: #"{"action": "get" | "set" | "remove" | "keys" | "clear", "key"?, "value"?}"#)
        }
        return true
    }
}
