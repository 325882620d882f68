import Foundation
import Testing
@testable import Vitrine
import VitrineTestSupport

/// The `storage` store as several processes of one app and hostile keys meet it: keys
/// byte for byte, no lost write between processes, no symlink followed.
@Suite("KeyValueStore: exact keys, several processes, no symlinks")
@MainActor
struct KeyValueStoreTests {
    static let nfc = "caf\u{E9}"
    static let nfd = "cafe\u{301}"

    @Test func keysCanonicallyEqualButNotByteEqualAreTwoKeys() throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(Self.nfc == Self.nfd && Self.nfc.utf8.count != Self.nfd.utf8.count, "Swift compares them equal")
        let store = KeyValueStore(directory: folder)
        try store.set(Self.nfc, "composed")
        try store.set(Self.nfd, "decomposed")
        #expect(try store.value(Self.nfc) == "composed")
        #expect(try store.value(Self.nfd) == "decomposed")
        let keys = try store.keys()
        #expect(keys.map { Array($0.utf8) } == [Array(Self.nfd.utf8), Array(Self.nfc.utf8)], "both, sorted by their bytes")
        // Read back from the file by another store (a restarted program): still two.
        let again = KeyValueStore(directory: folder)
        #expect(try again.keys().count == 2)
        #expect(try again.value(Self.nfd) == "decomposed")
        try again.remove(Self.nfc)
        #expect(try again.keys().map { Array($0.utf8) } == [Array(Self.nfd.utf8)], "removing one leaves the other")
        #expect(try store.value(Self.nfc) == .null && store.value(Self.nfd) == "decomposed")
    }

    /// Two stores on one folder each keep what they last read, as two processes do: each
    /// change is made on the file as it is now, and each read sees the other's writes.
    @Test func twoStoresOnOneFileLoseNoWrite() throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = KeyValueStore(directory: folder), second = KeyValueStore(directory: folder)
        try first.set("a", 1)
        #expect(try second.value("a") == 1)
        try second.set("b", 2)
        try first.set("c", 3)
        #expect(try second.keys() == ["a", "b", "c"])
        try second.remove("a")
        #expect(try first.keys() == ["b", "c"])
        try first.clear()
        #expect(try second.keys() == [])
    }

    /// Two real processes write 200 keys each into one store at the same time: all 400 are there.
    @Test func twoProcessesWritingAtOnceLoseNoWrite() async throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let writer = try BuiltProducts.path("vitrine-store-writer")
        let count = 200, prefixes = ["one", "two"]
        let processes = try prefixes.map { prefix in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: writer)
            process.arguments = [folder.path, prefix, String(count)]
            process.standardOutput = FileHandle.nullDevice
            let errors = folder.appendingPathComponent("stderr-\(prefix)").path
            _ = FileManager.default.createFile(atPath: errors, contents: nil)
            process.standardError = FileHandle(forWritingAtPath: errors)
            try process.run()
            return process
        }
        defer { for process in processes where process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        // Both ready, then both go: they write at the same time.
        func exists(_ name: String) -> Bool { FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path) }
        var deadline = Date().addingTimeInterval(60)
        while !prefixes.allSatisfy({ exists("ready-\($0)") }) && Date() < deadline { try await Task.sleep(for: .milliseconds(5)) }
        try #require(prefixes.allSatisfy { exists("ready-\($0)") })
        try Data().write(to: folder.appendingPathComponent("go"))
        deadline = Date().addingTimeInterval(240)
        while processes.contains(where: \.isRunning) && Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        for (process, prefix) in zip(processes, prefixes) {
            let errors = (try? String(contentsOf: folder.appendingPathComponent("stderr-\(prefix)"), encoding: .utf8)) ?? ""
            #expect(!process.isRunning && process.terminationStatus == 0, "\(prefix): \(errors)")
        }
        let keys = try KeyValueStore(directory: folder.appendingPathComponent("store")).keys()
        let expected = prefixes.flatMap { prefix in (1...count).map { "\(prefix)-\($0)" } }.sorted()
        #expect(keys.count == 2 * count, "lost \(2 * count - keys.count) writes")
        #expect(keys == expected)
    }

    @Test func aSymlinkedStoreFileIsNeitherReadNorWrittenThrough() throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let secret = folder.appendingPathComponent("secret.json")
        try Data(#"{"token":"s3cret"}"#.utf8).write(to: secret)
        let store = folder.appendingPathComponent("app")
        try FileManager.default.createDirectory(at: store, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: store.appendingPathComponent("storage.json"), withDestinationURL: secret)
        let refused = #expect(throws: ScriptMessageError.self) { try KeyValueStore(directory: store).value("token") }
        #expect(refused?.message.contains("symlink") == true, "\(String(describing: refused))")
        #expect(throws: ScriptMessageError.self) { try KeyValueStore(directory: store).set("k", 1) }
        #expect(try String(contentsOf: secret, encoding: .utf8) == #"{"token":"s3cret"}"#, "the link's target untouched")
    }

    @Test func aSymlinkedLockFileOrTemporaryFileIsNotFollowed() throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("app")
        try FileManager.default.createDirectory(at: store, withIntermediateDirectories: true)
        // The lock file a link to a file that does not exist yet: opening it must not create it.
        let elsewhere = folder.appendingPathComponent("created-elsewhere")
        try FileManager.default.createSymbolicLink(at: store.appendingPathComponent("storage.json.lock"), withDestinationURL: elsewhere)
        let refused = #expect(throws: ScriptMessageError.self) { try KeyValueStore(directory: store).set("k", 1) }
        #expect(refused?.message.contains("symlink") == true, "\(String(describing: refused))")
        #expect(!FileManager.default.fileExists(atPath: elsewhere.path), "nothing created through the link")
        try FileManager.default.removeItem(at: store.appendingPathComponent("storage.json.lock"))

        // A link left at the temporary file's name: removed, the target never truncated.
        let victim = folder.appendingPathComponent("victim")
        try Data("keep me".utf8).write(to: victim)
        try FileManager.default.createSymbolicLink(
            at: store.appendingPathComponent("storage.json.vitrine-new-\(getpid())"), withDestinationURL: victim)
        try KeyValueStore(directory: store).set("k", 1)
        #expect(try String(contentsOf: victim, encoding: .utf8) == "keep me")
        #expect(try KeyValueStore(directory: store).value("k") == 1)
    }
}
