#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An app's persistent key–value store (`storage` capability): one JSON file,
/// `storage.json`, in the app's data folder, read at first use and rewritten whole on each
/// change — written to a temporary file and renamed over the old one, so a crash leaves
/// either the old store or the new one, never half of one.
///
/// Size-limited so that a page cannot fill the disk: each value's JSON text, each key, and
/// the whole file.
@MainActor
public final class KeyValueStore {
    public struct Limits: Sendable {
        public var keyBytes = 1024
        public var valueBytes = 1 << 20
        public var totalBytes = 10 << 20

        public init(keyBytes: Int = 1024, valueBytes: Int = 1 << 20, totalBytes: Int = 10 << 20) {
            self.keyBytes = keyBytes
            self.valueBytes = valueBytes
            self.totalBytes = totalBytes
        }
    }

    public let file: URL
    public let limits: Limits
    /// The values as JSON text, once read.
    private var values: [String: String]?

    /// One store per folder in a process: every window of an app shares its store.
    private static var stores: [String: KeyValueStore] = [:]

    public static func shared(in directory: URL) -> KeyValueStore {
        if let store = stores[directory.path] { return store }
        let store = KeyValueStore(directory: directory)
        stores[directory.path] = store
        return store
    }

    public init(directory: URL, limits: Limits = Limits()) {
        file = directory.appendingPathComponent("storage.json")
        self.limits = limits
    }

    public func value(_ key: String) throws(ScriptMessageError) -> JSONValue {
        guard let text = try load()[key] else { return .null }
        return (try? JSONValue(parsing: text)) ?? .null
    }

    /// The keys, sorted.
    public func keys() throws(ScriptMessageError) -> [String] {
        try load().keys.sorted()
    }

    public func set(_ key: String, _ value: JSONValue) throws(ScriptMessageError) {
        guard !key.isEmpty, key.utf8.count <= limits.keyBytes else {
            throw ScriptMessageError("storage: a key must be 1 to \(limits.keyBytes) bytes")
        }
        let text = value.jsonText
        guard text.utf8.count <= limits.valueBytes else {
            throw ScriptMessageError("storage: the value for '\(key)' is \(text.utf8.count) bytes of JSON; the limit is \(limits.valueBytes)")
        }
        var changed = try load()
        changed[key] = text
        try save(changed)
    }

    public func remove(_ key: String) throws(ScriptMessageError) {
        var changed = try load()
        guard changed.removeValue(forKey: key) != nil else { return }
        try save(changed)
    }

    public func clear() throws(ScriptMessageError) {
        try save([:])
    }

    private func load() throws(ScriptMessageError) -> [String: String] {
        if let values { return values }
        guard FileSystem.isRegularFile(file.path) else {
            values = [:]
            return [:]
        }
        do {
            let data = try Data(contentsOf: file)
            let object = try JSONDecoder().decode([String: JSONValue].self, from: data)
            let loaded = object.mapValues(\.jsonText)
            values = loaded
            return loaded
        } catch {
            throw ScriptMessageError("storage: \(file.path) cannot be read as a store (\(error)); move it away to start afresh")
        }
    }

    private func save(_ changed: [String: String]) throws(ScriptMessageError) {
        // The file: `{"key": value, …}`, keys sorted so that equal stores are equal files.
        let text = "{" + changed.keys.sorted().map { JSONValue.string($0).jsonText + ":" + changed[$0]! }.joined(separator: ",") + "}"
        guard text.utf8.count <= limits.totalBytes else {
            throw ScriptMessageError("storage: the store would be \(text.utf8.count) bytes; the limit is \(limits.totalBytes) (remove keys first)")
        }
        do {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: file, options: .atomic)
        } catch {
            throw ScriptMessageError("storage: cannot write \(file.path): \(error)")
        }
        values = changed
    }
}

/// `storage`: `{"action": "get" | "remove", "key"}`, `{"action": "set", "key", "value"}`,
/// `{"action": "keys" | "clear"}`. `get` answers the value or null; `keys` the keys; the
/// others true.
public struct StorageStrategy: ScriptMessageStrategy {
    public static let identifier = Capability.storage.rawValue
    public static let capability: Capability? = .storage

    public let store: KeyValueStore

    public init(store: KeyValueStore) {
        self.store = store
    }

    @MainActor
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
