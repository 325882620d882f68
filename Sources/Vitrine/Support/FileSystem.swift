#if canImport(Glibc)
import Glibc
#endif

/// The few file-system and text facts the core needs, from libc: Vitrine links only
/// FoundationEssentials (no ICU, no full Foundation) to keep start-up and memory close
/// to a plain C WebKitGTK program.
public enum FileSystem {
    /// Whether `path` exists and is a directory (symlinks followed).
    public static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// Whether `path` exists and is a regular file (symlinks followed).
    public static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    /// The permission bits of a regular file (`0o600`), or nil.
    public static func permissions(_ path: String) -> UInt32? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return UInt32(info.st_mode & 0o7777)
    }

    /// Replaces the file at `path` with `bytes` atomically (`replaceAtomically(in:name:with:)`
    /// in the folder `path` names), giving the new file the old one's permissions (0644 for
    /// a new file).
    public static func replaceAtomically(_ path: String, with bytes: [UInt8]) throws(FileSystemError) {
        let slash = path.lastIndex(of: "/")
        let folderPath = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let folder = open(folderPath, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folder >= 0 else { throw FileSystemError("cannot replace '\(path)': \(String(cString: strerror(errno)))") }
        defer { close(folder) }
        let failure = bytes.withUnsafeBytes { buffer -> FileSystemError? in
            do throws(FileSystemError) { try replaceAtomically(in: folder, name: name, with: buffer, permissions: nil) } catch { return error }
            return nil
        }
        if let failure { throw FileSystemError("cannot replace '\(path)': \(failure)") }
    }

    /// Replaces the file `name` in the open folder `folder` with `bytes` atomically: a
    /// temporary file beside it (same folder, so the rename cannot cross file systems),
    /// written, flushed to disk, given `permissions` (nil: the replaced file's, or 0644),
    /// then renamed over it. A reader sees the old file or the new one, never half of one; a
    /// crash leaves at worst a stray temporary file, removed by the next write.
    ///
    /// Everything happens relative to `folder`, whatever its path comes to name meanwhile,
    /// and no symlink in the folder is followed: one at the temporary name is removed, one
    /// at `name` is replaced itself (its target neither written nor lending its permissions).
    public static func replaceAtomically(in folder: Int32, name: String, with bytes: UnsafeRawBufferPointer,
                                         permissions: UInt32?) throws(FileSystemError) {
        guard !name.isEmpty, !name.contains("/"), name != ".", name != ".." else { throw FileSystemError("'\(name)' is not a file name") }
        let temporary = name + ".vitrine-new-\(getpid())"
        var info = stat()
        let mode = permissions.map { mode_t($0) } ?? (fstatat(folder, name, &info, AT_SYMLINK_NOFOLLOW) == 0
            && (info.st_mode & S_IFMT) == S_IFREG ? info.st_mode & 0o7777 : 0o644)
        // A new file of its own: anything left at the temporary name is removed, never written through.
        unlinkat(folder, temporary, 0)
        let descriptor = openat(folder, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw FileSystemError("cannot write '\(temporary)': \(String(cString: strerror(errno)))") }
        var offset = 0
        while offset < bytes.count {
            let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else {
                let reason = String(cString: strerror(errno))
                close(descriptor)
                unlinkat(folder, temporary, 0)
                throw FileSystemError("cannot write '\(temporary)': \(reason)")
            }
            offset += written
        }
        // The mode exactly, whatever the umask took from it at creation.
        fchmod(descriptor, mode)
        let synced = fsync(descriptor) == 0
        close(descriptor)
        // rename replaces whatever has the name (a symlink too) without following it.
        guard synced, renameat(folder, temporary, folder, name) == 0 else {
            let reason = String(cString: strerror(errno))
            unlinkat(folder, temporary, 0)
            throw FileSystemError("cannot replace '\(name)': \(reason)")
        }
    }

    /// A regular file's bytes (at most `limit`) and what it is, read without following a
    /// symlink at `path` itself; nil when nothing is there. A symlink, a folder, a device or
    /// a FIFO there is an error (opened without waiting, so a FIFO cannot block).
    public static func readRegularFile(_ path: String, limit: Int) throws(FileSystemError) -> (bytes: [UInt8], identity: FileIdentity)? {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            throw FileSystemError("cannot read '\(path)': " + (errno == ELOOP ? "it is a symlink, which is never followed" : String(cString: strerror(errno))))
        }
        defer { close(fd) }
        guard let identity = FileIdentity(descriptor: fd), identity.isRegularFile else {
            throw FileSystemError("cannot read '\(path)': it is not a regular file")
        }
        guard let bytes = readAll(fd, limit: limit) else {
            throw FileSystemError("cannot read '\(path)': \(String(cString: strerror(errno)))")
        }
        guard bytes.count <= limit else { throw FileSystemError("cannot read '\(path)': it is over \(limit) bytes") }
        return (bytes, identity)
    }

    /// Everything left to read from `fd`, up to one byte past `limit` (so that a caller sees
    /// it went over); nil on a read error.
    public static func readAll(_ fd: Int32, limit: Int) -> [UInt8]? {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while bytes.count <= limit {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, min($0.count, limit + 1 - bytes.count)) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[..<count])
        }
        return bytes
    }

    /// The size of a regular file, or nil.
    public static func size(_ path: String) -> Int? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int(info.st_size)
    }

    /// The whole text of a small file (at most `limit` bytes), or nil if it cannot be
    /// read. Reads until end of file rather than trusting `st_size`, which is 0 for the
    /// files under /proc.
    public static func contents(of path: String, limit: Int = 1 << 20) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while bytes.count < limit {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[..<count])
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The names in a folder (without `.` and `..`), or nil if it cannot be listed.
    public static func entries(of folder: String) -> [String]? {
        guard let directory = opendir(folder) else { return nil }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}

extension String {
    /// Decodes `%XX` escapes; nil when an escape is malformed or the bytes are not UTF-8.
    public var percentDecoded: String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var iterator = utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(Self.hexValue), let low = iterator.next().flatMap(Self.hexValue)
            else { return nil }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}

