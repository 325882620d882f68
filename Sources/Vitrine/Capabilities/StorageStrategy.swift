#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `storage`: `{"action": "get" | "remove", "key"}`, `{"action": "set", "key", "value"}`,
/// `{"action": "keys" | "clear"}`. `get` answers the value or null; `keys` the keys; the
/// others true.
public struct StorageStrategy: TypedScriptMessageStrategy {
    public static let identifier = "storage"
    public static let capability: Capability? = .storage

    public enum Request: ActionRequest {
        case get(key: String)
        case set(key: String, value: JSONValue)
        case remove(key: String)
        case keys
        case clear
        public static let actions = ["get", "set", "remove", "keys", "clear"]
    }

    public nonisolated let store: KeyValueStore

    public nonisolated init(store: KeyValueStore) {
        self.store = store
    }

    public func handle(_ message: ScriptMessage, context: ScriptMessageContext) async throws -> JSONValue {
        // The value is stored as the page posted it: Foundation's decoder would reorder an
        // object's members and refuse lone surrogates, so it reads a placeholder instead.
        let body = message.body
        guard case .object(var members) = body, let value = members["value"] else {
            return try await respond(to: try TypedPayload.decode(Request.self, from: message), context: context)
        }
        members["value"] = .null
        let request = try TypedPayload.decode(Request.self, from: ScriptMessage(name: message.name, body: .object(members)))
        guard case .set(let key, _) = request else { return try await respond(to: request, context: context) }
        return try await respond(to: .set(key: key, value: value), context: context)
    }

    public func respond(to request: Request, context: ScriptMessageContext) async throws -> JSONValue {
        switch request {
        case .get(let key): return try store.value(key)
        case .set(let key, let value): try store.set(key, value)
        case .remove(let key): try store.remove(key)
        case .keys: return .array(try store.keys().map(JSONValue.string))
        case .clear: try store.clear()
        }
        return true
    }
}
