#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An app's persistent key–value store (`storage` capability): one JSON file,
/// `storage.json`, in the app's data folder, rewritten whole on each change — written to a
/// temporary file and renamed over the old one, so a crash leaves either the old store or
/// the new one, never half of one.
///
/// Several processes of one app share the file: each change takes an exclusive lock on
/// `storage.json.lock` beside it, reads the file afresh, applies itself and writes, so no
/// process writes back a stale copy over another's change; a read takes the shared lock and
/// reads the file again whenever another process wrote (the lock file counts writes).
/// Neither file is reached through a symlink.
///
/// Keys are byte-exact: `"café"` in NFC and in NFD are two keys (a Swift `String` compares
/// them equal, so keys are held as their UTF-8 bytes).
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

    /// A key as its UTF-8 bytes: equal only when byte for byte equal.
    private struct Key: Hashable, Comparable {
        let bytes: [UInt8]
        init(_ text: String) { bytes = Array(text.utf8) }
        var text: String { String(decoding: bytes, as: UTF8.self) }
        static func < (lhs: Key, rhs: Key) -> Bool { lhs.bytes.lexicographicallyPrecedes(rhs.bytes) }
    }

    public nonisolated let file: URL
    public nonisolated let limits: Limits
    private var lockPath: String { file.path + ".lock" }
    /// The values as JSON text, as last read, with the write count and file they came from.
    private var cache: (values: [Key: String], generation: UInt64, identity: FileIdentity?)?

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
        guard let text = try read()[Key(key)] else { return .null }
        return (try? JSONValue(parsing: text)) ?? .null
    }

    /// The keys, sorted by their bytes.
    public func keys() throws(ScriptMessageError) -> [String] {
        try read().keys.sorted().map(\.text)
    }

    public func set(_ key: String, _ value: JSONValue) throws(ScriptMessageError) {
        guard !key.isEmpty, key.utf8.count <= limits.keyBytes else {
            throw ScriptMessageError("storage: a key must be 1 to \(limits.keyBytes) bytes")
        }
        let text = value.jsonText
        guard text.utf8.count <= limits.valueBytes else {
            throw ScriptMessageError("storage: the value for '\(key)' is \(text.utf8.count) bytes of JSON; the limit is \(limits.valueBytes)")
        }
        try change { values in
            values[Key(key)] = text
            return true
        }
    }

    public func remove(_ key: String) throws(ScriptMessageError) {
        try change { $0.removeValue(forKey: Key(key)) != nil }
    }

    public func clear() throws(ScriptMessageError) {
        try change { values in
            values.removeAll()
            return true
        }
    }

    /// Under the exclusive lock: the file read afresh, `apply` (false: nothing changed),
    /// the file written.
    private func change(_ apply: (inout [Key: String]) -> Bool) throws(ScriptMessageError) {
        try createFolder()
        let lock = try locked(exclusive: true)
        var values = try load(generation: lock.generation)
        guard apply(&values) else { return }
        // The file: `{"key": value, …}`, keys sorted so that equal stores are equal files.
        let members: [String] = values.keys.sorted().map { key in JSONValue.string(key.text).jsonText + ":" + values[key]! }
        let text = "{" + members.joined(separator: ",") + "}"
        guard text.utf8.count <= limits.totalBytes else {
            throw ScriptMessageError("storage: the store would be \(text.utf8.count) bytes; the limit is \(limits.totalBytes) (remove keys first)")
        }
        do {
            try FileSystem.replaceAtomically(file.path, with: Array(text.utf8))
        } catch {
            throw ScriptMessageError("storage: \(error)")
        }
        lock.advanceGeneration()
        cache = nil // the next read stats the new file
    }

    /// The values under the shared lock: the cache while no process wrote since.
    private func read() throws(ScriptMessageError) -> [Key: String] {
        guard FileSystem.isDirectory(file.deletingLastPathComponent().path) else { return [:] }
        let lock = try locked(exclusive: false)
        return try load(generation: lock.generation)
    }

    /// The file's values (the lock held): the cache when neither the write count nor the
    /// file changed, else read and parsed.
    private func load(generation: UInt64) throws(ScriptMessageError) -> [Key: String] {
        let loaded: (bytes: [UInt8], identity: FileIdentity)?
        do {
            loaded = try FileSystem.readRegularFile(file.path, limit: limits.totalBytes)
        } catch {
            throw ScriptMessageError("storage: \(error); move it away to start afresh")
        }
        if let cache, cache.generation == generation, cache.identity == loaded?.identity { return cache.values }
        var values: [Key: String] = [:]
        if let loaded {
            do {
                for (key, value) in try JSONTextReader.members(ofObject: String(decoding: loaded.bytes, as: UTF8.self)) {
                    values[Key(key)] = value.jsonText
                }
            } catch {
                throw ScriptMessageError("storage: \(file.path) cannot be read as a store (\(error)); move it away to start afresh")
            }
        }
        cache = (values, generation, loaded?.identity)
        return values
    }

    private func locked(exclusive: Bool) throws(ScriptMessageError) -> FileLock {
        do {
            return try FileLock(path: lockPath, exclusive: exclusive)
        } catch {
            throw ScriptMessageError("storage: \(error)")
        }
    }

    private func createFolder() throws(ScriptMessageError) {
        do {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            throw ScriptMessageError("storage: cannot create \(file.deletingLastPathComponent().path): \(error)")
        }
    }
}

