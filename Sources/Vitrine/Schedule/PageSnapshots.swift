#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// When a playlist page's last good load is kept: after a page item (not media) loaded
/// with a 2xx main resource over http(s), at most once per `minimumInterval` per page (a
/// playlist turning every 10 s does not rewrite its files at every turn), and never more
/// than `maximumBytes`.
public struct SnapshotPolicy: Sendable, Equatable {
    public var minimumInterval: Duration
    public var maximumBytes: Int

    public init(minimumInterval: Duration = .seconds(300), maximumBytes: Int = 32 << 20) {
        self.minimumInterval = minimumInterval
        self.maximumBytes = maximumBytes
    }

    /// Whether to save the page at `url` now. `statusCode` is its main resource's (0: none,
    /// as for an error page or a page WebKit made itself); `lastSaved` when it was last kept.
    public func shouldSave(_ url: URL, statusCode: Int, isMedia: Bool, lastSaved: Date?, now: Date) -> Bool {
        guard !isMedia, (200...299).contains(statusCode) else { return false }
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else { return false }
        guard let lastSaved else { return true }
        return now.timeIntervalSince(lastSaved) >= Double(minimumInterval.components.seconds)
    }
}

/// The folder of kept pages, `<data folder>/snapshots/<sha256 of the URL>.mhtml`: one MHTML
/// archive per page, replaced atomically (`FileSystem.replaceAtomically(in:name:with:permissions:)`:
/// a reader never sees half a file), and read and written only as regular files inside a
/// real folder — a symlink in the folder's place or a file's place is refused, never followed.
///
/// They are shown through the `vitrine-snapshot` scheme (`snapshotURL(for:)`): an origin
/// of its own per page, never the live site's.
public struct PageSnapshots: Sendable {
    public static let scheme = "vitrine-snapshot"
    public static let fileExtension = "mhtml"

    /// The policy a snapshot is shown under: its parts from its own scheme (they come from
    /// the archive, `SnapshotContent`), inline style, no script, no frame, nothing from the
    /// network and nothing local; no `<base>` and no form can send it elsewhere.
    public static let contentSecurityPolicy = "default-src 'none'; img-src \(scheme): data:; style-src \(scheme): 'unsafe-inline'; "
        + "font-src \(scheme): data:; media-src \(scheme):; base-uri 'none'; form-action 'none'"

    public let folder: URL
    public let maximumBytes: Int
    /// SHA-256 of a string, in lowercase hex (the adapter's GLib computes it).
    private let digest: @Sendable (String) -> String

    public init(folder: URL, maximumBytes: Int = SnapshotPolicy().maximumBytes, digest: @escaping @Sendable (String) -> String) {
        self.folder = folder
        self.maximumBytes = maximumBytes
        self.digest = digest
    }

    /// The snapshots' place under a data folder.
    public static func folder(in dataFolder: URL) -> URL { dataFolder.appendingPathComponent("snapshots", isDirectory: true) }

    /// The file name of `url`'s snapshot.
    public func name(for url: URL) -> String { Self.name(ofDigest: digest(url.absoluteString)) }

    /// The address `url`'s snapshot is shown at.
    public func snapshotURL(for url: URL) -> URL { Self.address(ofDigest: digest(url.absoluteString)) }

    /// `url`'s snapshot read (once) to be shown, and the address it is shown at: one digest
    /// of the URL names both. Nil when there is none (or it is not a regular file, or too big).
    public func kept(for url: URL) -> KeptSnapshot? {
        let hash = digest(url.absoluteString)
        guard let data = load(named: Self.name(ofDigest: hash)) else { return nil }
        return KeptSnapshot(address: Self.address(ofDigest: hash), data: data)
    }

    private static func name(ofDigest hash: String) -> String { "\(hash).\(fileExtension)" }

    private static func address(ofDigest hash: String) -> URL { URL(string: "\(scheme)://\(hash)/")! }

    /// The file name a snapshot address stands for, or nil when it is not one (another
    /// scheme, a path, anything but 64 hex digits).
    public static func name(ofSnapshotURL url: URL) -> String? {
        guard url.scheme?.lowercased() == scheme, let host = url.host?.lowercased(), host.count == 64,
              host.allSatisfy({ $0.isHexDigit }), url.path.isEmpty || url.path == "/", url.query == nil
        else { return nil }
        return "\(host).\(fileExtension)"
    }

    /// Whether a navigation to a snapshot address may go ahead: only the one Vitrine loads
    /// itself (`expected`) in the view's main frame. A page's own navigation to one, a
    /// frame's or a new window's, is refused.
    public static func admits(_ action: NavigationAction, expected: URL?) -> Bool {
        guard let expected, action.url == expected, name(ofSnapshotURL: action.url) != nil else { return false }
        return action.target == .currentView && action.isTopLevel != false
    }

    /// Keeps `data` as `url`'s snapshot, replacing the one before.
    public func save(_ data: Data, for url: URL) throws {
        guard data.count <= maximumBytes else {
            throw FileSystemError("the snapshot is \(data.count) bytes, more than the \(maximumBytes) kept")
        }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw FileSystemError("cannot make \(folder.path): \(error)")
        }
        let directory = try openFolder()
        defer { close(directory) }
        let name = name(for: url)
        do {
            try data.withUnsafeBytes { bytes in
                try FileSystem.replaceAtomically(in: directory, name: name, with: bytes, permissions: 0o600)
            }
        } catch {
            throw FileSystemError("cannot save \(name) in \(folder.path): \(error)")
        }
    }

    /// `url`'s snapshot, or nil when there is none (or it is not a regular file, or too big).
    public func load(for url: URL) -> Data? { load(named: name(for: url)) }

    /// Whether `url` has a snapshot to show (a regular file, not empty, within the cap).
    public func hasSnapshot(for url: URL) -> Bool {
        guard let (fd, size) = openSnapshot(named: name(for: url)) else { return false }
        close(fd)
        return size > 0
    }

    /// The snapshot file `name` (as `name(ofSnapshotURL:)` gives), read without following links.
    public func load(named name: String) -> Data? {
        guard let (fd, size) = openSnapshot(named: name) else { return nil }
        defer { close(fd) }
        var data = Data(count: size)
        let complete = data.withUnsafeMutableBytes { buffer -> Bool in
            var offset = 0
            while offset < buffer.count {
                let n = read(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { return false }
                offset += n
            }
            return true
        }
        return complete && !data.isEmpty ? data : nil
    }

    /// The snapshot file `name` opened for reading, and its size: only a regular file
    /// within the cap, never through a symlink (the folder's or the file's).
    private func openSnapshot(named name: String) -> (Int32, Int)? {
        guard !name.contains("/"), let directory = try? openFolder() else { return nil }
        defer { close(directory) }
        let fd = openat(directory, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, Int(info.st_size) <= maximumBytes else {
            close(fd)
            return nil
        }
        return (fd, Int(info.st_size))
    }

    /// The folder, opened as a directory that is not a symlink.
    private func openFolder() throws -> Int32 {
        let fd = open(folder.path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { throw FileSystemError("\(folder.path) is not a folder (a symlink is not followed)") }
        return fd
    }
}

/// A page's snapshot as read from the folder (`PageSnapshots.kept(for:)`), and the address
/// it is shown at.
public struct KeptSnapshot: Sendable, Equatable {
    public let address: URL
    public let data: Data
}
