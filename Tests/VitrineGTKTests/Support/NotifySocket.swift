import Foundation
import Glibc

/// A service manager's end of systemd's notify protocol, for a test: a datagram socket
/// bound to an abstract name (`@…`, as systemd's own can be), whose messages are read in
/// the order they came.
final class NotifySocket {
    /// `NOTIFY_SOCKET` for the program under test.
    let address: String
    private let socket: Int32

    init() throws {
        let name = "vitrine-notify-\(UUID().uuidString)"
        address = "@" + name
        socket = Glibc.socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var sockaddr = sockaddr_un()
        sockaddr.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(name.utf8)
        withUnsafeMutableBytes(of: &sockaddr.sun_path) { path in
            for (index, byte) in bytes.enumerated() { path[1 + index] = byte }  // path[0] = 0: abstract
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + 1 + bytes.count)
        let bound = withUnsafePointer(to: &sockaddr) {
            $0.withMemoryRebound(to: Glibc.sockaddr.self, capacity: 1) { bind(socket, $0, length) }
        }
        guard socket >= 0, bound == 0 else { throw POSIXError(.EADDRINUSE) }
    }

    deinit { close(socket) }

    /// The next message, or nil when none comes within `timeout` seconds.
    func receive(timeout: TimeInterval) -> String? {
        var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, Int32(timeout * 1000)) > 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = recv(socket, &buffer, buffer.count, 0)
        return count < 0 ? nil : String(decoding: buffer.prefix(count), as: UTF8.self)
    }

    /// Messages until one that `matches` (returned last), each within `timeout` of the one
    /// before; all of them, the match last, or what came before the wait ran out.
    func receive(until matches: (String) -> Bool, timeout: TimeInterval) -> [String] {
        var received: [String] = []
        while let message = receive(timeout: timeout) {
            received.append(message)
            if matches(message) { break }
        }
        return received
    }
}
