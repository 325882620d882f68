#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A listening TCP socket as the kernel lists it in `/proc/net/tcp` and `tcp6`: its local
/// address, port and socket inode (what `/proc/<pid>/fd/N -> socket:[INODE]` names, which
/// ties the socket to the processes holding it).
public struct TCPListener: Sendable, Hashable, CustomStringConvertible {
    public var address: IPAddress
    public var port: Int
    public var inode: UInt64

    public init(address: IPAddress, port: Int, inode: UInt64) {
        self.address = address
        self.port = port
        self.inode = inode
    }

    /// `127.0.0.1:5900`, `[::]:5900`.
    public var description: String { address.withPort(port) }

    /// The rows in LISTEN state (`st` 0A) of a `/proc/net/tcp` or `tcp6` text. The kernel
    /// writes an address as hex of 32-bit words in host (little-endian) order: IPv4 as one
    /// word, IPv6 as four; the port is plain big hex. Lines it cannot read are skipped.
    public static func parse(procNetTCP text: String) -> [TCPListener] {
        text.split(separator: "\n").dropFirst().compactMap { line in
            let fields = line.split(separator: " ")
            guard fields.count > 9, fields[3] == "0A", let inode = UInt64(fields[9]) else { return nil }
            let local = fields[1].split(separator: ":")
            guard local.count == 2, let port = Int(local[1], radix: 16),
                  let bytes = littleEndianWords(local[0]), let address = IPAddress(bytes: bytes) else { return nil }
            return TCPListener(address: address, port: port, inode: inode)
        }
    }

    /// The inode a `/proc/<pid>/fd` link names when it is a socket (`socket:[12345]`).
    public static func socketInode(link: String) -> UInt64? {
        guard link.hasPrefix("socket:["), link.hasSuffix("]") else { return nil }
        return UInt64(link.dropFirst("socket:[".count).dropLast())
    }

    /// The listening sockets process `pid` holds: its socket inodes matched against the TCP
    /// tables of its network namespace (`proc` is `/proc`, or a fake tree in tests); nil
    /// when the process is gone or its folder is unreadable.
    public static func held(byProcess pid: Int32, proc: String = "/proc") -> [TCPListener]? {
        let folder = "\(proc)/\(pid)"
        guard let descriptors = try? FileManager.default.contentsOfDirectory(atPath: folder + "/fd") else { return nil }
        let inodes = Set(descriptors.compactMap { descriptor in
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "\(folder)/fd/\(descriptor)")).flatMap(socketInode(link:))
        })
        var listeners: [TCPListener] = []
        for table in ["tcp", "tcp6"] {
            // A kernel without IPv6 has no tcp6: that table lists nothing.
            guard let data = FileManager.default.contents(atPath: "\(folder)/net/\(table)") else { continue }
            listeners += parse(procNetTCP: String(decoding: data, as: UTF8.self)).filter { inodes.contains($0.inode) }
        }
        return listeners
    }

    /// `0100007F` → 127.0.0.1; 32 hex digits → 16 bytes, each word's bytes reversed.
    private static func littleEndianWords(_ hex: Substring) -> [UInt8]? {
        guard hex.count == 8 || hex.count == 32, hex.allSatisfy({ $0.isASCII && $0.isHexDigit }) else { return nil }
        let digits = Array(hex)
        var bytes: [UInt8] = []
        for word in stride(from: 0, to: digits.count, by: 8) {
            let wordBytes = stride(from: word, to: word + 8, by: 2).map { UInt8(String(digits[$0...$0 + 1]), radix: 16)! }
            bytes += wordBytes.reversed()
        }
        return bytes
    }
}
