import Foundation
import Testing
import Vitrine

/// A playlist bundle's decisions, without a network or a display: conditional requests,
/// what each answer does, which archives may be unpacked, and the folder's atomic swap.
@Suite("Playlist bundles: sync decisions, unpack rules, the folder")
struct BundleSyncTests {
    let archive = URL(string: "https://cms.example/lobby.zip")!
    let hash = String(repeating: "a1", count: 32)
    let other = String(repeating: "b2", count: 32)

    // MARK: Source

    @Test func aBundleIsServedUnderAStableHostOfItsURL() {
        let source = BundleSource(archiveURL: archive, entry: "screens/lobby page.html")
        #expect(source.id.count == 16)
        #expect(source.id == BundleSource(archiveURL: archive).id)
        #expect(source.id != BundleSource(archiveURL: URL(string: "https://cms.example/other.zip")!).id)
        #expect(source.pageURL.absoluteString == "app://bundle-\(source.id)/screens/lobby%20page.html")
    }

    @Test func onlyPlainRelativeEntriesAndLoopbackHTTPAreAccepted() {
        for entry in ["index.html", "a/b.html", "screens/lobby.html"] { #expect(BundleSource.acceptsEntry(entry), "\(entry)") }
        for entry in ["", "/etc/passwd", "../x.html", "a/../../x", "a\\b.html", "./index.html", "a//b", "a\u{0}b"] {
            #expect(!BundleSource.acceptsEntry(entry), "\(entry)")
        }
        #expect(BundleSource.acceptsArchiveURL(archive))
        #expect(BundleSource.acceptsArchiveURL(URL(string: "http://127.0.0.1:8080/b.zip")!))
        #expect(!BundleSource.acceptsArchiveURL(URL(string: "http://cms.example/b.zip")!))
        #expect(!BundleSource.acceptsArchiveURL(URL(string: "file:///tmp/b.zip")!))
        #expect(BundleSource.acceptsSHA256(hash) && BundleSource.acceptsSHA256(hash.uppercased()))
        #expect(!BundleSource.acceptsSHA256(String(hash.dropLast())) && !BundleSource.acceptsSHA256(String(repeating: "g", count: 64)))
    }

    // MARK: Decisions

    @Test func conditionalHeadersOnlyWithAVersionOnDisk() {
        let stored = BundleSyncState(etag: "\"e1\"", lastModified: "Tue, 01 Dec 2026 10:00:00 GMT", sha256: hash, version: "v1")
        #expect(stored.requestHeaders.map(\.name) == ["If-None-Match", "If-Modified-Since"])
        #expect(stored.requestHeaders.map(\.value) == ["\"e1\"", "Tue, 01 Dec 2026 10:00:00 GMT"])
        var lost = stored
        lost.version = nil
        #expect(lost.requestHeaders.isEmpty)
    }

    @Test func a304KeepsTheVersionAndA200Installs() {
        let stored = BundleSyncState(etag: "\"e1\"", sha256: hash, version: "v1")
        #expect(stored.decide(.status(304, BundleValidators(etag: "\"e1\""), sha256: ""), expectedSHA256: nil) == .unchanged(stored))
        #expect(BundleSyncState().decide(.status(304, BundleValidators(), sha256: ""), expectedSHA256: nil)
                == .failed("HTTP 304 but no version on disk"))
        let fresh = stored.decide(.status(200, BundleValidators(etag: "\"e2\"", lastModified: "x"), sha256: other), expectedSHA256: nil)
        #expect(fresh == .install(BundleSyncState(etag: "\"e2\"", lastModified: "x", sha256: other, version: nil)))
        // The same archive under another ETag: nothing to unpack, the new ETag kept.
        let same = stored.decide(.status(200, BundleValidators(etag: "\"e3\""), sha256: hash.uppercased()), expectedSHA256: nil)
        #expect(same == .unchanged(BundleSyncState(etag: "\"e3\"", sha256: hash, version: "v1")))
    }

    @Test func errorsAndAWrongHashKeepTheVersionOnDisk() {
        let stored = BundleSyncState(etag: "\"e1\"", sha256: hash, version: "v1")
        #expect(stored.decide(.unreachable("Connection refused"), expectedSHA256: nil) == .failed("Connection refused"))
        #expect(stored.decide(.status(500, BundleValidators(), sha256: ""), expectedSHA256: nil) == .failed("HTTP 500"))
        #expect(stored.decide(.status(404, BundleValidators(), sha256: ""), expectedSHA256: nil) == .failed("HTTP 404"))
        #expect(stored.decide(.tooLarge(limit: 10), expectedSHA256: nil) == .failed("the archive is larger than 10 bytes"))
        #expect(stored.decide(.status(200, BundleValidators(), sha256: other), expectedSHA256: hash)
                == .failed("sha256 mismatch: expected \(hash), got \(other)"))
        #expect(stored.decide(.status(200, BundleValidators(), sha256: other), expectedSHA256: other.uppercased())
                == .install(BundleSyncState(sha256: other)))
    }

    // MARK: Unpack rules

    func plan(_ entries: [BundleArchiveEntry], rules: BundleArchiveRules = .standard) -> Result<[BundleArchiveEntry], BundleArchiveRules.Refusal> {
        rules.plan(entries, entry: "index.html")
    }

    @Test func plainFilesAndFoldersAreNormalised() throws {
        let planned = try plan([.init(path: "./", kind: .directory), .init(path: "./index.html", kind: .file, size: 5),
                                .init(path: "css/", kind: .directory), .init(path: "css//site.css", kind: .file, size: 3)]).get()
        #expect(planned.map(\.path) == ["index.html", "css", "css/site.css"])
        #expect(planned.map(\.kind) == [.file, .directory, .file])
    }

    @Test func pathsThatLeaveTheBundleAreRefused() {
        for path in ["../../etc/x", "a/../../x", "/etc/passwd", "..", "a\\..\\x", "a/\u{1}b"] {
            #expect(plan([.init(path: "index.html", kind: .file), .init(path: path, kind: .file)]) == .failure(.unsafePath(path)), "\(path)")
        }
    }

    @Test func linksDevicesAndDuplicatesAreRefused() {
        #expect(plan([.init(path: "index.html", kind: .file), .init(path: "p", kind: .symlink)]) == .failure(.link("p")))
        #expect(plan([.init(path: "index.html", kind: .file), .init(path: "h", kind: .hardlink)]) == .failure(.link("h")))
        #expect(plan([.init(path: "index.html", kind: .file), .init(path: "dev", kind: .special)]) == .failure(.special("dev")))
        #expect(plan([.init(path: "index.html", kind: .file), .init(path: "./index.html", kind: .file)]) == .failure(.duplicate("index.html")))
        #expect(plan([.init(path: "other.html", kind: .file)]) == .failure(.missingEntry("index.html")))
        #expect(plan([.init(path: "index.html", kind: .directory)]) == .failure(.missingEntry("index.html")))
    }

    @Test func zipBombsAreRefusedByCountAndSize() {
        let rules = BundleArchiveRules(maxEntries: 3, maxUnpackedBytes: 100)
        let many = (0..<4).map { BundleArchiveEntry(path: "f\($0)", kind: .file) }
        #expect(plan(many, rules: rules) == .failure(.tooManyEntries(limit: 3)))
        #expect(plan([.init(path: "index.html", kind: .file, size: 60), .init(path: "b", kind: .file, size: 41)], rules: rules)
                == .failure(.tooLarge(limit: 100)))
        #expect((try? plan([.init(path: "index.html", kind: .file, size: 60), .init(path: "b", kind: .file, size: 40)], rules: rules).get())?.count == 2)
    }

    // MARK: The folder

    func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vitrine-bundle-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test func theWriterCountsRealBytesAndNeverFollowsALink() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let outside = folder.appendingPathComponent("outside")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        let version = folder.appendingPathComponent("v")
        try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
        // A link planted in the new folder (by a racing writer): neither a folder nor a file goes through it.
        try FileManager.default.createSymbolicLink(atPath: version.appendingPathComponent("css").path, withDestinationPath: outside.path)
        try FileManager.default.createSymbolicLink(atPath: version.appendingPathComponent("x.html").path,
                                                   withDestinationPath: outside.appendingPathComponent("x.html").path)
        let writer = try BundleFolderWriter(folder: version, rules: BundleArchiveRules(maxUnpackedBytes: 8))
        #expect(throws: BundleFolderWriter.Failure.self) { try writer.startFile("css/site.css") }
        #expect(throws: BundleFolderWriter.Failure.self) { try writer.startFile("x.html") }
        // Nor a name that climbs, even unplanned.
        #expect(throws: BundleFolderWriter.Failure.self) { try writer.startFile("../escaped.html") }
        #expect(throws: BundleFolderWriter.Failure.self) { try writer.makeFolder("a/../../up") }
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside.path).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("escaped.html").path))
        try writer.startFile("index.html")
        try Array("12345".utf8).withUnsafeBytes { try writer.append($0) }
        // A header may say 0 bytes; the real bytes still count.
        #expect(throws: BundleFolderWriter.Failure.self) { try Array("6789".utf8).withUnsafeBytes { try writer.append($0) } }
    }

    @Test func activationSwapsCurrentAndRemovesTheOldVersion() throws {
        let data = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: data) }
        let store = BundleStore(dataFolder: data, source: BundleSource(archiveURL: archive))
        #expect(!store.hasCurrent && store.loadState() == BundleSyncState())
        let first = try store.makeVersionFolder()
        try "v1".write(to: first.url.appendingPathComponent("index.html"), atomically: false, encoding: .utf8)
        try store.activate(first.name, state: BundleSyncState(etag: "\"1\"", sha256: hash))
        #expect(try String(contentsOf: store.current.appendingPathComponent("index.html"), encoding: .utf8) == "v1")
        #expect(store.loadState() == BundleSyncState(etag: "\"1\"", sha256: hash, version: first.name))
        let second = try store.makeVersionFolder()
        try "v2".write(to: second.url.appendingPathComponent("index.html"), atomically: false, encoding: .utf8)
        try store.activate(second.name, state: BundleSyncState(etag: "\"2\"", sha256: other))
        #expect(try String(contentsOf: store.current.appendingPathComponent("index.html"), encoding: .utf8) == "v2")
        #expect(try FileManager.default.contentsOfDirectory(atPath: store.versionsFolder.path) == [second.name])
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: store.current.path) == "versions/\(second.name)")
        // A state whose version folder is gone is no state: the next sync asks unconditionally.
        try FileManager.default.removeItem(at: store.versionsFolder)
        #expect(store.loadState() == BundleSyncState())
    }

    // MARK: The events line

    @Test func aSyncIsALineOfItsOwnKind() throws {
        let report = BundleSyncReport(url: archive.absoluteString, outcome: .failed, version: "v1", reason: "HTTP 500")
        let line = ContainerEvent.bundleSync(report).json
        #expect(line["type"]?.stringValue == "bundle-sync")
        #expect(line["outcome"]?.stringValue == "failed")
        #expect(line["reason"]?.stringValue == "HTTP 500")
        #expect(line["version"]?.stringValue == "v1")
    }
}
