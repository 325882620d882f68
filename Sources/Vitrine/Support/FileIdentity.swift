#if canImport(Glibc)
import Glibc
#endif

/// What an open file is: which file (device and inode, the same however it is reached)
/// and which version of it (size and change times).
public struct FileIdentity: Sendable, Equatable {
    public let device: UInt64
    public let inode: UInt64
    public let mode: UInt32
    public let size: Int
    public let modified: Int
    public let changed: Int

    public init?(descriptor: Int32) {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        mode = UInt32(info.st_mode)
        size = Int(info.st_size)
        modified = Int(info.st_mtim.tv_sec) * 1_000_000_000 + Int(info.st_mtim.tv_nsec)
        changed = Int(info.st_ctim.tv_sec) * 1_000_000_000 + Int(info.st_ctim.tv_nsec)
    }

    public var isRegularFile: Bool { mode & UInt32(S_IFMT) == UInt32(S_IFREG) }
    public var isDirectory: Bool { mode & UInt32(S_IFMT) == UInt32(S_IFDIR) }

    /// Whether `other` is the same file (device and inode), whatever its version.
    public func isSameFile(as other: FileIdentity) -> Bool { device == other.device && inode == other.inode }
}
