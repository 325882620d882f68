#if canImport(Glibc)
import Glibc
#endif

/// An advisory lock (`flock`) on a lock file beside the data it guards, shared by every
/// process that opens the same file: several processes of one app take turns on its store.
///
/// The lock file is opened without following a symlink (`O_NOFOLLOW`) and must be a
/// regular file, so a link planted at its name cannot make Vitrine create or lock a file
/// elsewhere. It holds a generation counter (8 bytes) that every writer increments: a
/// reader that saw the same generation knows nothing was written since.
public struct FileLock: ~Copyable {
    private let descriptor: Int32

    /// Opens (creating, mode 0600) the lock file at `path` and waits for the lock:
    /// exclusive for a writer, shared for a reader.
    public init(path: String, exclusive: Bool) throws(FileSystemError) {
        let fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            let reason = errno == ELOOP ? "it is a symlink, which is never followed" : String(cString: strerror(errno))
            throw FileSystemError("cannot open the lock file '\(path)': \(reason)")
        }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            throw FileSystemError("the lock file '\(path)' is not a regular file")
        }
        while flock(fd, exclusive ? LOCK_EX : LOCK_SH) != 0 {
            guard errno == EINTR else {
                let reason = String(cString: strerror(errno))
                close(fd)
                throw FileSystemError("cannot lock '\(path)': \(reason)")
            }
        }
        descriptor = fd
    }

    /// The writers' count so far (0 for a new lock file).
    public var generation: UInt64 {
        var value: UInt64 = 0
        let count = withUnsafeMutableBytes(of: &value) { pread(descriptor, $0.baseAddress, 8, 0) }
        return count == 8 ? value : 0
    }

    /// Counts one more write (under the exclusive lock).
    public func advanceGeneration() {
        var value = generation &+ 1
        _ = withUnsafeBytes(of: &value) { pwrite(descriptor, $0.baseAddress, 8, 0) }
    }

    /// Unlocks (closing the file releases the lock).
    deinit {
        close(descriptor)
    }
}
