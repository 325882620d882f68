#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An IPv4 or IPv6 address as its bytes (4 or 16), so that the spellings a configuration and
/// the kernel use (`::1`, `0:0::1`, a v4-mapped `::ffff:127.0.0.1`) compare as one address.
public struct IPAddress: Sendable, Hashable, CustomStringConvertible {
    /// 4 bytes (IPv4) or 16 (IPv6), in network order.
    public let bytes: [UInt8]

    /// A v4-mapped IPv6 address (`::ffff:a.b.c.d`) becomes its IPv4 address: a socket
    /// bound to it accepts exactly the connections to that IPv4 address.
    public init?(bytes: [UInt8]) {
        switch bytes.count {
        case 4: self.bytes = bytes
        case 16 where bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xff && bytes[11] == 0xff:
            self.bytes = Array(bytes[12...])
        case 16: self.bytes = bytes
        default: return nil
        }
    }

    /// Dotted IPv4 (`127.0.0.1`) or IPv6 text (`fd00::1`, `::ffff:10.0.0.1`); `localhost`
    /// is 127.0.0.1, the address servers bind for it here.
    public init?(_ text: String) {
        if text == "localhost" { self.init(bytes: [127, 0, 0, 1]); return }
        if let v4 = Self.ipv4Bytes(Substring(text)) { self.init(bytes: v4); return }
        guard let v6 = Self.ipv6Bytes(text) else { return nil }
        self.init(bytes: v6)
    }

    public var isIPv6: Bool { bytes.count == 16 }

    /// `0.0.0.0` or `::`: every address of the machine.
    public var isWildcard: Bool { bytes.allSatisfy { $0 == 0 } }

    /// `127.0.0.1`, or IPv6 with the longest run of zero groups shortened (RFC 5952).
    public var description: String {
        guard isIPv6 else { return bytes.map(String.init).joined(separator: ".") }
        let groups = (0..<8).map { Int(bytes[2 * $0]) << 8 | Int(bytes[2 * $0 + 1]) }
        var best = (start: -1, length: 0), index = 0
        while index < 8 {
            var end = index
            while end < 8 && groups[end] == 0 { end += 1 }
            if end - index > max(1, best.length) { best = (index, end - index) }
            index = end == index ? index + 1 : end
        }
        let hex = groups.map { String($0, radix: 16) }
        guard best.start >= 0 else { return hex.joined(separator: ":") }
        return hex[..<best.start].joined(separator: ":") + "::" + hex[(best.start + best.length)...].joined(separator: ":")
    }

    /// `ADDR:PORT`, with IPv6 in brackets.
    public func withPort(_ port: Int) -> String { isIPv6 ? "[\(self)]:\(port)" : "\(self):\(port)" }

    private static func ipv4Bytes(_ text: Substring) -> [UInt8]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        let bytes = parts.compactMap { part -> UInt8? in
            guard (1...3).contains(part.count), part.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            return UInt8(part)
        }
        return bytes.count == 4 ? bytes : nil
    }

    private static func ipv6Bytes(_ text: String) -> [UInt8]? {
        // Up to one `::`; the last group may be dotted IPv4 (two groups' worth).
        let halves = text.components(separatedBy: "::")
        guard halves.count <= 2 else { return nil }
        func groups(_ part: String) -> [UInt8]? {
            guard !part.isEmpty else { return [] }
            var bytes: [UInt8] = []
            let fields = part.split(separator: ":", omittingEmptySubsequences: false)
            for (index, field) in fields.enumerated() {
                if index == fields.count - 1, field.contains("."), let v4 = ipv4Bytes(field) {
                    bytes += v4
                } else {
                    guard (1...4).contains(field.count), field.allSatisfy({ $0.isASCII && $0.isHexDigit }),
                          let value = UInt16(field, radix: 16) else { return nil }
                    bytes += [UInt8(value >> 8), UInt8(value & 0xff)]
                }
            }
            return bytes
        }
        guard let head = groups(halves[0]) else { return nil }
        if halves.count == 1 { return head.count == 16 ? head : nil }
        guard let tail = groups(halves[1]), head.count + tail.count <= 14 else { return nil }
        return head + Array(repeating: 0, count: 16 - head.count - tail.count) + tail
    }
}
