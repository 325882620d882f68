#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// A bundle's folder under the app's data folder:
///
///     <data>/bundles/<id>/state.json      validators and the current version (BundleSyncState)
///     <data>/bundles/<id>/versions/<v>/   one unpacked archive each
///     <data>/bundles/<id>/current         symlink to versions/<v>: what `app://bundle-<id>/` serves
///
/// A new version is unpacked into its own folder, flushed, and made current by renaming a
/// new symlink over `current` (atomic: a reader sees the old version or the new one, never
/// half of one); older versions are removed after.
public struct BundleStore: Sendable {
    public let folder: URL

    public init(dataFolder: URL, source: BundleSource) {
        folder = dataFolder.appendingPathComponent("bundles").appendingPathComponent(source.id)
    }

    public var versionsFolder: URL { folder.appendingPathComponent("versions") }
    public var current: URL { folder.appendingPathComponent("current") }
    var stateFile: URL { folder.appendingPathComponent("state.json") }

    /// Whether a current version is on disk (the item can be shown without the network).
    public var hasCurrent: Bool {
        var status = stat()
        return stat(current.path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
    }

    /// The stored state; empty when there is none or it is unreadable, and without a
    /// version when that version's folder is gone.
    public func loadState() -> BundleSyncState {
        guard let data = try? Data(contentsOf: stateFile),
              var state = try? JSONDecoder().decode(BundleSyncState.self, from: data)
        else { return BundleSyncState() }
        if state.version == nil || !hasCurrent { state = BundleSyncState() }
        return state
    }

    public func saveState(_ state: BundleSyncState) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try JSONEncoder().encode(state).write(to: stateFile, options: .atomic)
    }

    /// A new, empty version folder and its name.
    public func makeVersionFolder() throws -> (name: String, url: URL) {
        try FileManager.default.createDirectory(at: versionsFolder, withIntermediateDirectories: true)
        let name = "\(Int(Date().timeIntervalSince1970))-\(UUID().uuidString.prefix(8).lowercased())"
        let url = versionsFolder.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
        return (name, url)
    }

    /// Makes the version `name` current (its files already flushed), stores `state` with it,
    /// and removes every other version.
    public func activate(_ name: String, state: BundleSyncState) throws {
        Self.syncFolders(in: versionsFolder.appendingPathComponent(name))
        let link = folder.appendingPathComponent("current.\(UUID().uuidString.prefix(8))")
        guard symlink("versions/\(name)", link.path) == 0 else {
            throw BundleFolderWriter.Failure("cannot link the new version: \(String(cString: strerror(errno)))")
        }
        guard rename(link.path, current.path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(link.path)
            throw BundleFolderWriter.Failure("cannot make the new version current: \(reason)")
        }
        Self.syncFolder(folder.path)
        var state = state
        state.version = name
        try saveState(state)
        removeVersions(except: name)
    }

    /// Removes a version that never became current.
    public func discard(_ name: String) {
        try? FileManager.default.removeItem(at: versionsFolder.appendingPathComponent(name))
    }

    private func removeVersions(except kept: String) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: versionsFolder.path)) ?? []
        for name in names where name != kept { discard(name) }
    }

    /// fsync of every folder from `root` down, so the new entries survive a power cut.
    private static func syncFolders(in root: URL) {
        syncFolder(root.path)
        for path in (try? FileManager.default.subpathsOfDirectory(atPath: root.path)) ?? [] {
            var status = stat()
            let full = root.path + "/" + path
            if lstat(full, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR { syncFolder(full) }
        }
    }

    private static func syncFolder(_ path: String) {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }
}
