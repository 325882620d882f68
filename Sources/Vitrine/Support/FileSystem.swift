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

    /// The size of a regular file, or nil.
    public static func size(_ path: String) -> Int? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int(info.st_size)
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

/// Who runs the program, from the password database.
public enum DesktopUser {
    public static var login: String {
        if let entry = getpwuid(getuid()), let name = entry.pointee.pw_name { return String(cString: name) }
        return ""
    }

    /// The full name from the GECOS field (up to its first comma), or the login.
    public static var fullName: String {
        guard let entry = getpwuid(getuid()), let gecos = entry.pointee.pw_gecos else { return login }
        let name = String(cString: gecos).split(separator: ",", omittingEmptySubsequences: false).first.map(String.init) ?? ""
        return name.isEmpty ? login : name
    }
}
