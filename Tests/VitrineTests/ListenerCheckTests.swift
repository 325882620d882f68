import Foundation
import Glibc
import Testing
import Vitrine
import VitrineTestSupport

/// `ListenerCheck` and what it reads: `/proc/net/tcp{,6}` rows as the kernel writes them
/// (captured here, in a namespace with 127.0.0.1, 10.200.5.1, ::1, fd00:5::1, every address
/// and a v4-mapped one), the sockets a process holds, and the verdict on a server's sockets.
@Suite("Listener check")
struct ListenerCheckTests {
    static let tcp = """
          sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
           0: 0100007F:170C 00000000:0000 0A 00000000:00000001 00:00000000 00000000     0        0 79703 2 000000006c600d4f 100 0 0 10 0
           1: 0105C80A:170D 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 79704 1 00000000bac1c4f3 100 0 0 10 0
           2: 00000000:170E 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 79705 1 00000000135256f7 100 0 0 10 0
           3: 0100007F:B7FC 0100007F:170C 01 00000000:00000000 00:00000000 00000000     0        0 79710 2 0000000072d65a2e 20 0 0 10 -1
           4: 0100007F:170C 0100007F:B7FC 01 00000000:00000000 00:00000000 00000000     0        0 0 1 0000000055ddc075 20 0 0 10 -1

        """
    static let tcp6 = """
          sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
           0: 00000000000000000000000001000000:170C 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 79706 1 000000004c01544e 100 0 0 10 0
           1: 0000000000000000FFFF00000100007F:1710 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 79709 1 000000009fd5ab64 100 0 0 10 0
           2: 050000FD000000000000000001000000:170D 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 79708 1 00000000120d9370 100 0 0 10 0
           3: 00000000000000000000000000000000:170F 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 79707 1 00000000e4c45ce5 100 0 0 10 0

        """

    private func listener(_ address: String, _ port: Int, inode: UInt64 = 1) -> TCPListener {
        TCPListener(address: IPAddress(address)!, port: port, inode: inode)
    }

    @Test func theKernelsRowsReadAsAddressesPortsAndInodes() {
        // Only LISTEN rows (0A): the connection's two ends (01) are not listeners.
        #expect(TCPListener.parse(procNetTCP: Self.tcp).map { "\($0) \($0.inode)" } == [
            "127.0.0.1:5900 79703", "10.200.5.1:5901 79704", "0.0.0.0:5902 79705",
        ])
        // IPv6: four little-endian words; a v4-mapped address is its IPv4 address.
        #expect(TCPListener.parse(procNetTCP: Self.tcp6).map { "\($0) \($0.inode)" } == [
            "[::1]:5900 79706", "127.0.0.1:5904 79709", "[fd00:5::1]:5901 79708", "[::]:5903 79707",
        ])
        #expect(TCPListener.parse(procNetTCP: Self.tcp6)[3].address.isWildcard)
        #expect(TCPListener.parse(procNetTCP: "header\n   0: 0100007G:170C 00000000:0000 0A 0 0 0 0 0 9\n   1: 0100007F 0 0A\n").isEmpty)
        #expect(TCPListener.socketInode(link: "socket:[79703]") == 79703)
        #expect(TCPListener.socketInode(link: "pipe:[79703]") == nil && TCPListener.socketInode(link: "/dev/null") == nil)
    }

    @Test func addressesCompareWhateverTheirSpelling() {
        #expect(IPAddress("0:0:0:0:0:0:0:1") == IPAddress("::1"))
        #expect(IPAddress("::ffff:127.0.0.1") == IPAddress("127.0.0.1") && IPAddress("localhost") == IPAddress("127.0.0.1"))
        #expect(IPAddress("FD00:5:0::1")?.description == "fd00:5::1")
        #expect(IPAddress("2001:db8:0:0:1:0:0:1")?.description == "2001:db8::1:0:0:1")
        #expect(IPAddress("1:0:2:3:4:5:6:7")?.description == "1:0:2:3:4:5:6:7", "one zero group stays")
        #expect(IPAddress("::")?.description == "::" && IPAddress("::")?.isWildcard == true)
        #expect(IPAddress("::1")?.withPort(5900) == "[::1]:5900" && IPAddress("10.0.0.1")?.withPort(1) == "10.0.0.1:1")
        for bad in [":::", "1::2::3", "12345::", "g::1", "1.2.3", "256.0.0.1", "1:2:3:4:5:6:7:8:9", "1:2:3:4:5:6:7", "", "vnc.corp", "::1%lo"] {
            #expect(IPAddress(bad) == nil, "\(bad)")
        }
    }

    /// x11vnc as it ran before `-rfbportv6 -1`: the configured socket, and libvncserver's own
    /// on every address at the default port.
    @Test func aSocketAnywhereElseIsRefused() throws {
        var check = try #require(ListenerCheck(program: "x11vnc", host: "127.0.0.1", port: 5911))
        #expect(check.observe([listener("127.0.0.1", 5911), listener("::", 5900)], elapsed: .milliseconds(300))
            == .refused("x11vnc listens on [::]:5900 (every address), not only on 127.0.0.1:5911"))
        var sixOnly = try #require(ListenerCheck(program: "x11vnc", host: "::1", port: 5901))
        #expect(sixOnly.observe([listener("::1", 5901), listener("127.0.0.1", 5901)], elapsed: .zero)
            == .refused("x11vnc listens on 127.0.0.1:5901, not only on [::1]:5901"))
        var port = try #require(ListenerCheck(program: "wayvnc", host: "10.200.5.1", port: 5901))
        #expect(port.observe([listener("10.200.5.1", 5900)], elapsed: .zero) == .refused("wayvnc listens on 10.200.5.1:5900, not only on 10.200.5.1:5901"))
        // Even after the configured socket was accepted a moment.
        var late = try #require(ListenerCheck(program: "x11vnc", host: "127.0.0.1", port: 5911))
        #expect(late.observe([listener("127.0.0.1", 5911)], elapsed: .zero) == .waiting)
        #expect(late.observe([listener("127.0.0.1", 5911), listener("0.0.0.0", 5911)], elapsed: .milliseconds(200))
            == .refused("x11vnc listens on 0.0.0.0:5911 (every address), not only on 127.0.0.1:5911"))
    }

    @Test func theConfiguredSocketIsAcceptedOnceItHasSettled() throws {
        var check = try #require(RemoteViewSettings(host: "localhost", port: 5900).listenerCheck(program: "x11vnc"))
        #expect(check.expected == "127.0.0.1:5900")
        #expect(check.observe([], elapsed: .milliseconds(100)) == .waiting)
        #expect(check.observe([listener("127.0.0.1", 5900)], elapsed: .milliseconds(400)) == .waiting)
        #expect(check.observe([listener("::ffff:127.0.0.1", 5900)], elapsed: .milliseconds(1300)) == .waiting)
        #expect(check.observe([listener("127.0.0.1", 5900)], elapsed: .milliseconds(1400)) == .listening)
        var six = try #require(RemoteViewSettings(host: "fd00:5:0::1", port: 5901).listenerCheck(program: "x11vnc"))
        #expect(six.observe([listener("fd00:5::1", 5901)], elapsed: .zero) == .waiting)
        #expect(six.observe([listener("fd00:5::1", 5901)], elapsed: .seconds(1)) == .listening)
    }

    @Test func noSocketInTimeOrOneThatClosesIsRefused() throws {
        var never = try #require(ListenerCheck(program: "x11vnc", host: "127.0.0.1", port: 5900))
        #expect(never.observe([], elapsed: .milliseconds(9900)) == .waiting)
        #expect(never.observe([], elapsed: .seconds(10)) == .refused("x11vnc does not listen on 127.0.0.1:5900 within 10 s"))
        var closed = try #require(ListenerCheck(program: "x11vnc", host: "127.0.0.1", port: 5900))
        #expect(closed.observe([listener("127.0.0.1", 5900)], elapsed: .zero) == .waiting)
        #expect(closed.observe([], elapsed: .milliseconds(100)) == .refused("x11vnc does not listen on 127.0.0.1:5900 any more"))
        #expect(ListenerCheck(program: "x11vnc", host: "vnc.corp", port: 5900) == nil)
    }

    /// A process's sockets are the inodes its descriptors link to, found in its namespace's tables.
    @Test func aProcessHoldsTheListenersItsDescriptorsName() throws {
        let folder = try ConfigFolder()
        let proc = folder.path + "/proc"
        try FileManager.default.createDirectory(atPath: proc + "/42/fd", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: proc + "/42/net", withIntermediateDirectories: true)
        try Self.tcp.write(toFile: proc + "/42/net/tcp", atomically: true, encoding: .utf8)
        try Self.tcp6.write(toFile: proc + "/42/net/tcp6", atomically: true, encoding: .utf8)
        for (fd, target) in [("0", "/dev/null"), ("3", "socket:[79703]"), ("4", "socket:[79707]"), ("5", "pipe:[79704]"), ("6", "socket:[99]")] {
            try FileManager.default.createSymbolicLink(atPath: "\(proc)/42/fd/\(fd)", withDestinationPath: target)
        }
        #expect(TCPListener.held(byProcess: 42, proc: proc)?.map(\.description) == ["127.0.0.1:5900", "[::]:5903"])
        #expect(TCPListener.held(byProcess: 43, proc: proc) == nil, "a process that is gone")

        // And for real: this process's own listening socket, read from /proc.
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        try #require(bound == 0 && listen(socket, 1) == 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        let port = Int(UInt16(bigEndian: address.sin_port))
        let mine = try #require(TCPListener.held(byProcess: getpid()))
        #expect(mine.map(\.description).contains("127.0.0.1:\(port)"), "\(mine)")
    }
}
