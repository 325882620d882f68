#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// The loopback sockets a sidecar needs: a free port for it, and its readiness check.
/// Blocking calls with short time limits: the adapter runs them off the main thread.
public enum SidecarProbe {
    /// A port free on 127.0.0.1 now: the kernel picks one for a socket bound to port 0,
    /// which is then closed. Another program could take it before the sidecar binds it;
    /// the kernel hands ports out in turn, so that race is unlikely, and the sidecar would
    /// then fail to bind and be reported like any failed start.
    public static func freePort() -> Int? {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard socket >= 0 else { return nil }
        defer { close(socket) }
        var address = loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { return nil }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        guard named == 0 else { return nil }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Whether the sidecar on `port` is ready by `readiness` now: its port takes a TCP
    /// connection, or `GET path` answers with a 2xx status line, within `timeout`.
    public static func isReady(_ readiness: SidecarReadiness, port: Int, timeout: Duration = .seconds(1)) -> Bool {
        switch readiness {
        case .started: return true
        case .port: return withConnection(port: port, timeout: timeout) { _ in true }
        case .path(let path):
            return withConnection(port: port, timeout: timeout) { socket in
                let request = "GET \(path) HTTP/1.0\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n"
                guard Array(request.utf8).withUnsafeBytes({ send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == request.utf8.count
                else { return false }
                return HTTPStatusLine.isSuccess(statusLine(socket))
            }
        }
    }

    /// The first line the server sends (at most 256 bytes).
    private static func statusLine(_ socket: Int32) -> String {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while bytes.count < 256, recv(socket, &byte, 1, 0) == 1, byte != UInt8(ascii: "\n") { bytes.append(byte) }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func withConnection(port: Int, timeout: Duration, _ body: (Int32) -> Bool) -> Bool {
        guard (1...65535).contains(port) else { return false }
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard socket >= 0 else { return false }
        defer { close(socket) }
        var limit = timeval(tv_sec: Int(timeout.components.seconds), tv_usec: Int(timeout.components.attoseconds / 1_000_000_000_000))
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var address = loopback(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        return connected == 0 && body(socket)
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return address
    }
}

/// An HTTP response's status line, judged.
enum HTTPStatusLine {
    /// `HTTP/1.x 2NN …`.
    static func isSuccess(_ line: String) -> Bool {
        let parts = line.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/"), let code = Int(parts[1]) else { return false }
        return (200...299).contains(code)
    }
}
