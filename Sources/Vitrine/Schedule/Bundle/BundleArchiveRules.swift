#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One entry of an archive as its headers describe it, before anything is written.
public struct BundleArchiveEntry: Sendable, Equatable {
    public enum Kind: String, Sendable {
        case file, directory, symlink, hardlink
        /// A device, FIFO, socket or anything else.
        case special
    }

    public var path: String
    public var kind: Kind
    /// The size the header declares (the writer counts the real bytes too).
    public var size: Int64

    public init(path: String, kind: Kind, size: Int64 = 0) {
        self.path = path
        self.kind = kind
        self.size = size
    }
}

/// Which archives a bundle may unpack: only regular files and folders, each inside the
/// bundle, each once, and few and small enough that a zip bomb cannot fill the disk.
public struct BundleArchiveRules: Sendable, Equatable {
    /// The most bytes downloaded for one archive.
    public var maxArchiveBytes: Int
    public var maxEntries: Int
    /// The most bytes all files unpack to.
    public var maxUnpackedBytes: Int64

    public init(maxArchiveBytes: Int = 256 << 20, maxEntries: Int = 10_000, maxUnpackedBytes: Int64 = 1 << 30) {
        self.maxArchiveBytes = maxArchiveBytes
        self.maxEntries = maxEntries
        self.maxUnpackedBytes = maxUnpackedBytes
    }

    public static let standard = BundleArchiveRules()

    /// Why an archive is refused.
    public enum Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        case unsafePath(String)
        case link(String)
        case special(String)
        case duplicate(String)
        case tooManyEntries(limit: Int)
        case tooLarge(limit: Int64)
        case missingEntry(String)

        public var description: String {
            switch self {
            case .unsafePath(let path): "an entry's path leaves the bundle or is not a plain relative path: \(Self.quoted(path))"
            case .link(let path): "an entry is a link, which a bundle may not hold: \(Self.quoted(path))"
            case .special(let path): "an entry is a device, FIFO or socket: \(Self.quoted(path))"
            case .duplicate(let path): "two entries have the same path: \(Self.quoted(path))"
            case .tooManyEntries(let limit): "more than \(limit) entries"
            case .tooLarge(let limit): "it unpacks to more than \(limit) bytes"
            case .missingEntry(let entry): "it has no \(Self.quoted(entry)) to show"
            }
        }

        private static func quoted(_ path: String) -> String {
            "'" + String(path.unicodeScalars.map { $0.properties.generalCategory == .control ? "?" : Character($0) }.prefix(200)) + "'"
        }
    }

    /// The entries to write, their paths normalised (no `./`, no trailing `/`), or why the
    /// archive is refused. `entry` must be one of its files.
    public func plan(_ entries: [BundleArchiveEntry], entry: String) -> Result<[BundleArchiveEntry], Refusal> {
        guard entries.count <= maxEntries else { return .failure(.tooManyEntries(limit: maxEntries)) }
        var planned: [BundleArchiveEntry] = []
        var seen = Set<String>()
        var total: Int64 = 0
        for item in entries {
            switch item.kind {
            case .symlink, .hardlink: return .failure(.link(item.path))
            case .special: return .failure(.special(item.path))
            case .file, .directory: break
            }
            // The root's own entry (`./` in many tars): nothing to make.
            if item.kind == .directory, item.path.split(separator: "/").allSatisfy({ $0 == "." }), !item.path.hasPrefix("/") { continue }
            guard let path = Self.normalizedPath(item.path) else { return .failure(.unsafePath(item.path)) }
            guard seen.insert(path).inserted else { return .failure(.duplicate(path)) }
            total += max(0, item.size)
            guard total <= maxUnpackedBytes else { return .failure(.tooLarge(limit: maxUnpackedBytes)) }
            planned.append(BundleArchiveEntry(path: path, kind: item.kind, size: max(0, item.size)))
        }
        guard planned.contains(where: { $0.kind == .file && $0.path == entry }) else { return .failure(.missingEntry(entry)) }
        return .success(planned)
    }

    /// `path` as a relative path of plain names, or nil: absolute, `..`, backslash, NUL or
    /// control characters, empty. `.` segments and a trailing `/` are dropped.
    public static func normalizedPath(_ path: String) -> String? {
        guard !path.hasPrefix("/"), !path.contains("\\"),
              !path.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else { return nil }
        var names: [Substring] = []
        for name in path.split(separator: "/", omittingEmptySubsequences: true) where name != "." {
            guard name != ".." else { return nil }
            names.append(name)
        }
        guard !names.isEmpty else { return nil }
        return names.joined(separator: "/")
    }
}
