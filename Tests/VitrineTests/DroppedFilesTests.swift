import Foundation
import Testing
import Vitrine

/// Files dropped onto a window: which URIs of a `text/uri-list` a page hears of.
@Suite("Dropped files: only local regular files, never through a link")
struct DroppedFilesTests {
    private let folder: String

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("vitrine-drop-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder + "/sub dir", withIntermediateDirectories: true)
        try "twelve bytes".write(toFile: folder + "/sub dir/a file.txt", atomically: true, encoding: .utf8)
        try "secret".write(toFile: folder + "/secret.txt", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: folder + "/link.txt", withDestinationPath: folder + "/secret.txt")
        try FileManager.default.createSymbolicLink(atPath: folder + "/linked dir", withDestinationPath: folder + "/sub dir")
        #expect(mkfifo(folder + "/fifo", 0o600) == 0)
    }

    private func uri(_ path: String) -> String { URL(fileURLWithPath: path).absoluteString }

    @Test func aRegularFileIsHandedWithItsSizeAndEverythingElseIsRefused() {
        let dropped = DroppedFiles(uriList: [
            "# a comment line", uri(folder + "/sub dir/a file.txt"), uri(folder + "/link.txt"),
            uri(folder + "/linked dir/a file.txt"), uri(folder + "/sub dir"), uri(folder + "/fifo"), uri(folder + "/missing"),
            "https://example.org/x.txt", "file://other.example/etc/passwd", "javascript:alert(1)", "",
        ].joined(separator: "\r\n") + "\r\n")
        #expect(dropped.files == [DroppedFiles.File(path: folder + "/sub dir/a file.txt", size: 12)])
        #expect(dropped.refused.map(\.reason) == [
            "reached through the symbolic link \(folder)/link.txt", "reached through the symbolic link \(folder)/linked dir",
            "not a regular file", "not a regular file", "no such file",
            "not a file: URI", "a file of another machine", "not a file: URI",
        ])
        #expect(dropped.payload.jsonText == #"{"files":[{"path":"\#(folder)/sub dir/a file.txt","size":12}]}"#)
    }

    @Test func aFloodOfFilesIsCutAtTheLimit() {
        let dropped = DroppedFiles(uriList: Array(repeating: uri(folder + "/secret.txt"), count: 150).joined(separator: "\n"))
        #expect(dropped.files.count == DroppedFiles.limit)
        #expect(dropped.refused.count == 50)
        #expect(dropped.refused.first?.reason == "more than 100 files in one drop")
    }
}
