import Foundation
import Testing
@testable import Vitrine

/// A file chosen in a dialog is pinned to the file it was: swapped for a symlink, replaced,
/// or made a FIFO since, it is refused (and a FIFO does not block).
@Suite("ChosenFiles: pinned by device and inode")
@MainActor
struct ChosenFilesTests {
    @Test func aChosenFileReplacedSinceIsRefused() throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let chosen = folder.appendingPathComponent("chosen.txt").path
        let other = folder.appendingPathComponent("other.txt").path
        try Data("chosen".utf8).write(to: URL(fileURLWithPath: chosen))
        try Data("other".utf8).write(to: URL(fileURLWithPath: other))
        let files = ChosenFiles()
        files.add([chosen])
        func read() throws -> String {
            let fd = try files.open(chosen, for: "dialog: read")
            defer { close(fd) }
            return String(decoding: FileSystem.readAll(fd, limit: 100) ?? [], as: UTF8.self)
        }
        #expect(try read() == "chosen")
        try Data("edited in place".utf8).write(to: URL(fileURLWithPath: chosen)) // same inode: still the file
        #expect(try read() == "edited in place")
        let refusal = ScriptMessageError("dialog: read: \(chosen) is no longer the file chosen (it was replaced since); choose it again")

        try FileManager.default.removeItem(atPath: chosen)
        try FileManager.default.createSymbolicLink(atPath: chosen, withDestinationPath: other)
        #expect(throws: refusal) { try read() }

        try FileManager.default.removeItem(atPath: chosen)
        try FileManager.default.copyItem(atPath: other, toPath: chosen)
        #expect(throws: refusal) { try read() }

        try FileManager.default.removeItem(atPath: chosen)
        #expect(mkfifo(chosen, 0o644) == 0)
        #expect(throws: ScriptMessageError("dialog: read: \(chosen) is not a readable file")) { try read() }

        #expect(throws: ScriptMessageError("dialog: read: \(other) was not chosen in a dialog")) { try files.open(other, for: "dialog: read") }
    }

    /// A save dialog's new name: nothing there when chosen, pinned at its first use.
    @Test func aNameWithNoFileYetIsPinnedWhenFirstOpened() throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("new.txt").path
        let files = ChosenFiles()
        files.add([path])
        #expect(files.contains(path))
        try Data("saved".utf8).write(to: URL(fileURLWithPath: path))
        close(try files.open(path, for: "dialog: read"))
        try FileManager.default.removeItem(atPath: path)
        try Data("swapped".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: ScriptMessageError.self) { try files.open(path, for: "dialog: read") }
    }
}
