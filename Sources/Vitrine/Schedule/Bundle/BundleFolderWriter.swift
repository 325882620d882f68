#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// Writes a planned archive's files into a new, empty version folder, and nowhere else:
/// every name is created relative to a descriptor of the folder above it, with `O_NOFOLLOW`
/// and `O_EXCL`, so neither a path nor a link (none is ever created) can lead out. Counts
/// the bytes really written against the rules' limit (headers may lie about sizes).
public final class BundleFolderWriter {
    public struct Failure: Error, Equatable, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }

    private let root: Int32
    private let limit: Int64
    private var written: Int64 = 0
    /// The file being written.
    private var file: Int32 = -1

    /// `folder` must exist and be empty (the store's new version folder).
    public init(folder: URL, rules: BundleArchiveRules = .standard) throws {
        root = Glibc.open(folder.path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard root >= 0 else { throw Failure("cannot open '\(folder.path)': \(String(cString: strerror(errno)))") }
        limit = rules.maxUnpackedBytes
    }

    deinit {
        if file >= 0 { close(file) }
        close(root)
    }

    /// Creates the folder `path` (normalised: `BundleArchiveRules.plan`), and those above it.
    public func makeFolder(_ path: String) throws {
        let folder = try openFolder(Array(path.split(separator: "/").map(String.init)))
        close(folder)
    }

    /// Starts the file `path`; `append` then `finish` it.
    public func startFile(_ path: String) throws {
        var names = path.split(separator: "/").map(String.init)
        guard let name = names.popLast(), Self.isPlainName(name) else { throw Failure("not a plain path: '\(path)'") }
        let folder = try openFolder(names)
        defer { close(folder) }
        let descriptor = openat(folder, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw Failure("cannot create '\(path)': \(String(cString: strerror(errno)))") }
        file = descriptor
    }

    public func append(_ bytes: UnsafeRawBufferPointer) throws {
        guard file >= 0 else { throw Failure("no file started") }
        written += Int64(bytes.count)
        guard written <= limit else { throw Failure(BundleArchiveRules.Refusal.tooLarge(limit: limit).description) }
        var offset = 0
        while offset < bytes.count {
            let count = write(file, bytes.baseAddress! + offset, bytes.count - offset)
            guard count > 0 else {
                if count < 0, errno == EINTR { continue }
                throw Failure("cannot write: \(String(cString: strerror(errno)))")
            }
            offset += count
        }
    }

    /// Flushes the file to the disk (before the version becomes current) and closes it.
    public func finishFile() throws {
        guard file >= 0 else { return }
        defer { close(file); file = -1 }
        guard fsync(file) == 0 else { throw Failure("cannot sync: \(String(cString: strerror(errno)))") }
    }

    /// A name that stays in its folder (the plan's rules already ensure it; checked again
    /// here so that the writer alone never leaves the version folder).
    private static func isPlainName(_ name: String) -> Bool {
        !name.isEmpty && name != "." && name != ".." && !name.contains("\0")
    }

    /// Opens (creating as needed) the folder `names` below the root; the caller closes it.
    private func openFolder(_ names: [String]) throws -> Int32 {
        guard names.allSatisfy(Self.isPlainName) else { throw Failure("not a plain path: '\(names.joined(separator: "/"))'") }
        var folder = dup(root)
        for name in names {
            if mkdirat(folder, name, 0o755) != 0, errno != EEXIST {
                close(folder)
                throw Failure("cannot create the folder '\(name)': \(String(cString: strerror(errno)))")
            }
            let next = openat(folder, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            close(folder)
            guard next >= 0 else { throw Failure("'\(name)' is not a folder") }
            folder = next
        }
        return folder
    }
}
