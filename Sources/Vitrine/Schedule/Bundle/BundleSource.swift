#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A playlist item's offline-first web bundle (`bundle = "https://cms/lobby.zip"`): an
/// archive synced into the app's data folder and served from there over `app://`, so that
/// a kiosk with no network still shows the last version it had.
public struct BundleSource: Sendable, Equatable {
    /// The archive (zip or tar): https, or http to a loopback host.
    public var archiveURL: URL
    /// The page of the bundle the item shows, relative to its root (default `index.html`).
    public var entry: String
    /// How often the archive is asked for again.
    public var syncInterval: Duration
    /// The archive's expected SHA-256 (lowercase hex); nil: any archive is taken.
    public var sha256: String?

    public static let defaultEntry = "index.html"
    public static let defaultSyncInterval = Duration.seconds(300)
    /// The shortest `sync-every`: a CMS is not polled harder than this.
    public static let shortestSyncInterval = Duration.seconds(10)
    /// The host prefix of a bundle's `app://` URL.
    public static let hostPrefix = "bundle-"

    public init(archiveURL: URL, entry: String = BundleSource.defaultEntry, syncInterval: Duration = BundleSource.defaultSyncInterval,
                sha256: String? = nil) {
        self.archiveURL = archiveURL
        self.entry = entry
        self.syncInterval = syncInterval
        self.sha256 = sha256?.lowercased()
    }

    /// A stable name for the archive URL (16 hex digits of its FNV-1a hash): its folder's
    /// name and its `app://` host. Stable across starts, so a restart finds its folder.
    public var id: String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in archiveURL.absoluteString.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// `bundle-<id>`: the `app://` host its files are served under.
    public var host: String { Self.hostPrefix + id }

    /// The URL the item loads: `app://bundle-<id>/<entry>`.
    public var pageURL: URL {
        var components = URLComponents()
        components.scheme = AppDirectory.scheme
        components.host = host
        components.path = "/" + entry
        return components.url ?? URL(string: "\(AppDirectory.scheme)://\(host)/")!
    }

    /// Whether `url` may be a bundle's archive URL: https, or http to a loopback host only.
    public static func acceptsArchiveURL(_ url: URL) -> Bool {
        guard let scheme = url.scheme?.lowercased(), let host = url.host, !host.isEmpty else { return false }
        if scheme == "https" { return true }
        return scheme == "http" && ["127.0.0.1", "::1", "[::1]", "localhost"].contains(host.lowercased())
    }

    /// Whether `entry` is a relative path inside the bundle: not empty, no leading `/`, no
    /// `..` or `.` segment, no backslash, no control character.
    public static func acceptsEntry(_ entry: String) -> Bool {
        guard !entry.isEmpty, !entry.hasPrefix("/"), !entry.contains("\\"),
              !entry.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else { return false }
        return entry.split(separator: "/", omittingEmptySubsequences: false).allSatisfy { !$0.isEmpty && $0 != ".." && $0 != "." }
    }

    /// Whether `text` is a SHA-256 in hex (64 digits).
    public static func acceptsSHA256(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0 | 0x20) }
    }
}
