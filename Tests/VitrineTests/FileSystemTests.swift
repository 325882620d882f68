import Foundation
import Testing
import Vitrine

/// `FileSystem.replaceAtomically`: the one atomic write of config files, stores and kept
/// pages, by folder descriptor and never through a symlink.
@Suite struct FileSystemTests {
    func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vitrine-fs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    func mode(_ url: URL) throws -> Int {
        try #require(FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int)
    }

    @Test func aReplacedFileKeepsItsPermissionsAndANewOneIs0644() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let kept = folder.appendingPathComponent("kept.toml"), new = folder.appendingPathComponent("new.toml")
        try Data("old".utf8).write(to: kept)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: kept.path)
        try FileSystem.replaceAtomically(kept.path, with: Array("replaced".utf8))
        try FileSystem.replaceAtomically(new.path, with: Array("new".utf8))
        #expect(try String(contentsOf: kept, encoding: .utf8) == "replaced")
        #expect(try mode(kept) == 0o600)
        #expect(try mode(new) == 0o644)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["kept.toml", "new.toml"])
    }

    /// Abuse: a symlink in the file's place, to a world-writable file. The link itself is
    /// replaced: its target is neither written nor lends the new file its permissions.
    @Test func aSymlinkInTheFilesPlaceIsReplacedAndLendsNoPermissions() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("target"), place = folder.appendingPathComponent("config.toml")
        try Data("target".utf8).write(to: target)
        try FileManager.default.setAttributes([.posixPermissions: 0o666], ofItemAtPath: target.path)
        try FileManager.default.createSymbolicLink(at: place, withDestinationURL: target)
        try FileSystem.replaceAtomically(place.path, with: Array("config".utf8))
        #expect(try String(contentsOf: target, encoding: .utf8) == "target")
        // Not followed by `attributesOfItem`: the place holds a regular file now, not the link.
        #expect(try FileManager.default.attributesOfItem(atPath: place.path)[.type] as? FileAttributeType == .typeRegular)
        #expect(try String(contentsOf: place, encoding: .utf8) == "config")
        #expect(try mode(place) == 0o644)
    }

    @Test func aNameWithASlashIsRefused() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let descriptor = open(folder.path, O_RDONLY | O_DIRECTORY)
        defer { close(descriptor) }
        for name in ["", ".", "..", "../escape", "a/b"] {
            #expect(throws: FileSystemError.self, "\(name)") {
                try [UInt8]("x".utf8).withUnsafeBytes { try FileSystem.replaceAtomically(in: descriptor, name: name, with: $0, permissions: 0o600) }
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: folder.deletingLastPathComponent().appendingPathComponent("escape").path))
    }
}
