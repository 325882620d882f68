import Foundation
import Testing
import Vitrine

/// The decisions about playlist pages' last good loads: when one is kept, where, how it is
/// written and read (never through a symlink), and which navigations may show one.
@Suite struct PageSnapshotsTests {
    /// A stand-in digest: the tests are about names and files, not SHA-256 (GLib's, in the adapter).
    static let digest: @Sendable (String) -> String = { text in
        var value: UInt64 = 1469598103934665603
        for byte in text.utf8 { value = (value ^ UInt64(byte)) &* 1099511628211 }
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: 64 - hex.count) + hex
    }

    let page = URL(string: "https://signs.example/menu.html")!
    let policy = SnapshotPolicy(minimumInterval: .seconds(300), maximumBytes: 64)

    func store(maximumBytes: Int = 64) throws -> (PageSnapshots, URL) {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("vitrine-snap-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        return (PageSnapshots(folder: PageSnapshots.folder(in: data), maximumBytes: maximumBytes, digest: Self.digest), data)
    }

    @Test func aPageIsKeptAfterA2xxLoadAtMostOncePerInterval() {
        let now = Date()
        #expect(policy.shouldSave(page, statusCode: 200, isMedia: false, lastSaved: nil, now: now))
        #expect(policy.shouldSave(page, statusCode: 204, isMedia: false, lastSaved: now.addingTimeInterval(-300), now: now))
        #expect(!policy.shouldSave(page, statusCode: 200, isMedia: false, lastSaved: now.addingTimeInterval(-299), now: now))
        // Error pages (no answer, 404, 500), media items and other schemes are never kept.
        for status in [0, 304, 404, 500, 503] {
            #expect(!policy.shouldSave(page, statusCode: status, isMedia: false, lastSaved: nil, now: now))
        }
        #expect(!policy.shouldSave(page, statusCode: 200, isMedia: true, lastSaved: nil, now: now))
        for other in ["file:///etc/passwd", "app://app/index.html", "vitrine-snapshot://\(String(repeating: "a", count: 64))/", "data:text/html,x"] {
            #expect(!policy.shouldSave(URL(string: other)!, statusCode: 200, isMedia: false, lastSaved: nil, now: now))
        }
    }

    @Test func snapshotsLiveUnderTheDataFolderByTheURLsDigest() throws {
        let (snapshots, data) = try store()
        defer { try? FileManager.default.removeItem(at: data) }
        #expect(snapshots.folder.path == data.path + "/snapshots")
        #expect(snapshots.name(for: page) == Self.digest(page.absoluteString) + ".mhtml")
        let address = snapshots.snapshotURL(for: page)
        #expect(address.absoluteString == "vitrine-snapshot://\(Self.digest(page.absoluteString))/")
        #expect(PageSnapshots.name(ofSnapshotURL: address) == snapshots.name(for: page))
        for bad in ["vitrine-snapshot://abc/", "vitrine-snapshot://\(String(repeating: "g", count: 64))/",
                    "vitrine-snapshot://\(String(repeating: "a", count: 64))/../x", "app://\(String(repeating: "a", count: 64))/"] {
            #expect(PageSnapshots.name(ofSnapshotURL: URL(string: bad)!) == nil, "\(bad)")
        }
    }

    @Test func aSaveReplacesTheLastOneWholeAndTheCapHolds() throws {
        let (snapshots, data) = try store()
        defer { try? FileManager.default.removeItem(at: data) }
        #expect(snapshots.load(for: page) == nil)
        try snapshots.save(Data("first".utf8), for: page)
        try snapshots.save(Data("second".utf8), for: page)
        #expect(snapshots.load(for: page) == Data("second".utf8))
        // No temporary file is left beside it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: snapshots.folder.path) == [snapshots.name(for: page)])
        #expect(throws: FileSystemError.self) { try snapshots.save(Data(count: 65), for: page) }
        #expect(snapshots.load(for: page) == Data("second".utf8))
        // A file grown past the cap on disk is not shown.
        try Data(count: 65).write(to: snapshots.folder.appendingPathComponent(snapshots.name(for: page)))
        #expect(snapshots.load(for: page) == nil)
    }

    @Test func aSymlinkInASnapshotsPlaceIsNeitherReadNorWrittenThrough() throws {
        let (snapshots, data) = try store()
        defer { try? FileManager.default.removeItem(at: data) }
        let secret = data.appendingPathComponent("secret.txt")
        try Data("secret".utf8).write(to: secret)
        try FileManager.default.createDirectory(at: snapshots.folder, withIntermediateDirectories: true)
        let place = snapshots.folder.appendingPathComponent(snapshots.name(for: page))
        try FileManager.default.createSymbolicLink(at: place, withDestinationURL: secret)
        #expect(snapshots.load(for: page) == nil)
        #expect(!snapshots.hasSnapshot(for: page))
        // A save replaces the link itself: the file it pointed at is untouched.
        try snapshots.save(Data("page".utf8), for: page)
        #expect(try String(contentsOf: secret, encoding: .utf8) == "secret")
        #expect(snapshots.load(for: page) == Data("page".utf8))
    }

    @Test func aSymlinkInTheFoldersPlaceIsRefused() throws {
        let (_, data) = try store()
        defer { try? FileManager.default.removeItem(at: data) }
        let elsewhere = data.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: data.appendingPathComponent("snapshots"), withDestinationURL: elsewhere)
        let snapshots = PageSnapshots(folder: PageSnapshots.folder(in: data), maximumBytes: 64, digest: Self.digest)
        try Data("planted".utf8).write(to: elsewhere.appendingPathComponent(snapshots.name(for: page)))
        #expect(snapshots.load(for: page) == nil)
        #expect(throws: FileSystemError.self) { try snapshots.save(Data("page".utf8), for: page) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path) == [snapshots.name(for: page)])
    }

    @Test func onlyTheSnapshotVitrineLoadsItselfMayBeNavigatedTo() throws {
        let (snapshots, data) = try store()
        defer { try? FileManager.default.removeItem(at: data) }
        let address = snapshots.snapshotURL(for: page)
        let other = snapshots.snapshotURL(for: URL(string: "https://signs.example/other.html")!)
        #expect(PageSnapshots.admits(NavigationAction(url: address), expected: address))
        let response = NavigationResponse(mimeType: "multipart/related", statusCode: 200, canShowMIMEType: true, isMainFrame: true)
        #expect(PageSnapshots.admits(NavigationAction(url: address, phase: .response(response)), expected: address))
        // Nothing expected, another snapshot, a new window, a frame: refused.
        #expect(!PageSnapshots.admits(NavigationAction(url: address), expected: nil))
        #expect(!PageSnapshots.admits(NavigationAction(url: other), expected: address))
        #expect(!PageSnapshots.admits(NavigationAction(url: address, target: .newWindow), expected: address))
        let frame = NavigationResponse(mimeType: "multipart/related", statusCode: 200, canShowMIMEType: true, isMainFrame: false)
        #expect(!PageSnapshots.admits(NavigationAction(url: address, phase: .response(frame)), expected: address))
        // A page's own address is no snapshot, even when "expected".
        #expect(!PageSnapshots.admits(NavigationAction(url: page), expected: page))
    }

    /// Showing a copy is one read of its file and one digest of its URL, which names both
    /// the file and the address it is shown at (the adapter shows first, then tells the
    /// retrier that address). No file, a symlink, an empty file: no copy, as before.
    @Test func aCopyIsReadOnceAndItsAddressComesFromTheSameDigest() throws {
        let digests = DigestCount()
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("vitrine-snap-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let snapshots = PageSnapshots(folder: PageSnapshots.folder(in: data), maximumBytes: 64,
                                      digest: { digests.add(); return Self.digest($0) })
        try snapshots.save(Data("copy".utf8), for: page)
        let before = digests.value
        let kept = try #require(snapshots.kept(for: page))
        #expect(digests.value - before == 1, "one digest for the file and the address")
        #expect(kept.data == Data("copy".utf8))
        #expect(kept.address.absoluteString == "vitrine-snapshot://\(Self.digest(page.absoluteString))/")
        #expect(PageSnapshots.name(ofSnapshotURL: kept.address) == snapshots.name(for: page))
        // Another page (another origin too) never brings this copy up.
        #expect(snapshots.kept(for: URL(string: "https://elsewhere.example/menu.html")!) == nil)
        #expect(snapshots.kept(for: URL(string: "https://signs.example/other.html")!) == nil)
        let file = snapshots.folder.appendingPathComponent(snapshots.name(for: page))
        try Data().write(to: file)
        #expect(snapshots.kept(for: page) == nil, "empty")
        try FileManager.default.removeItem(at: file)
        let secret = data.appendingPathComponent("secret.txt")
        try Data("secret".utf8).write(to: secret)
        try FileManager.default.createSymbolicLink(at: file, withDestinationURL: secret)
        #expect(snapshots.kept(for: page) == nil, "a symlink is not followed")
    }
}

/// Counts a digest's calls (the store calls it from whichever thread reads).
private final class DigestCount: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func add() { lock.withLock { count += 1 } }
}
