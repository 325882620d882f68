import Foundation
import Testing
import VitrineTestSupport

/// Two network namespaces of the test's own joined by a veth pair, as a kiosk and a host on
/// its LAN: `server` (10.200.77.1/30, fd00:77::1/64, and an IPv6 link-local address) and
/// `client` (…2). Nothing leaves the machine: both ends are inside namespaces made here,
/// deleted in `remove()` (or `deinit`) with everything in them. Needs root (`ip netns`).
final class NetworkNamespacePair {
    let server: String
    let client: String
    static let serverIPv4 = "10.200.77.1", serverIPv6 = "fd00:77::1"

    init() throws {
        let tag = "\(getpid())-\(UInt32.random(in: 0..<1_000_000))"
        server = "vtv-s-\(tag)"
        client = "vtv-c-\(tag)"
        let steps: [[String]] = [
            ["netns", "add", server], ["netns", "add", client],
            ["-n", server, "link", "set", "lo", "up"], ["-n", client, "link", "set", "lo", "up"],
            ["-n", server, "link", "add", "lan0", "type", "veth", "peer", "name", "lan0", "netns", client],
            ["-n", server, "addr", "add", Self.serverIPv4 + "/30", "dev", "lan0"],
            ["-n", client, "addr", "add", "10.200.77.2/30", "dev", "lan0"],
            // nodad: the addresses are usable at once (no duplicate detection to wait for).
            ["-n", server, "addr", "add", Self.serverIPv6 + "/64", "dev", "lan0", "nodad"],
            ["-n", client, "addr", "add", "fd00:77::2/64", "dev", "lan0", "nodad"],
            ["-n", server, "link", "set", "lan0", "up"], ["-n", client, "link", "set", "lan0", "up"],
        ]
        do {
            for step in steps {
                let result = try runProcess("/usr/sbin/ip", step, timeout: 20)
                guard result.status == 0 else { throw NamespaceError(message: "ip \(step.joined(separator: " ")): \(result.stderr)") }
            }
        } catch {
            remove()
            throw error
        }
    }

    /// The server end's IPv6 link-local address once duplicate detection has finished
    /// (`fe80::…%lan0`, as the client reaches it), or nil after `timeout`.
    func serverLinkLocal(timeout: TimeInterval = 15) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let shown = (try? runProcess("/usr/sbin/ip", ["-n", server, "-6", "-o", "addr", "show", "dev", "lan0", "scope", "link"]))?.stdout ?? ""
            if !shown.contains("tentative"), let field = shown.split(separator: " ").first(where: { $0.hasPrefix("fe80::") }) {
                return field.split(separator: "/")[0] + "%lan0"
            }
            usleep(100_000)  // the kernel's address state: nothing to be woken by
        }
        return nil
    }

    /// What the client finds at `host` `port` (Support/rfb_probe.py): `closed`, `no answer`,
    /// or `security TYPES`.
    func probe(_ host: String, _ port: Int) -> String {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("rfb_probe.py").path
        let result = try? runProcess("/usr/sbin/ip", ["netns", "exec", client, "/usr/bin/python3", script, host, String(port)], timeout: 20)
        return result.map { ($0.stdout + $0.stderr).trimmingCharacters(in: .whitespacesAndNewlines) } ?? "no probe"
    }

    /// The listening TCP sockets in the server namespace, as `ss -ltnp` shows them:
    /// `ADDR:PORT program`.
    func serverListeners() -> [String] {
        let shown = (try? runProcess("/usr/sbin/ip", ["netns", "exec", server, "ss", "-Hltnp"]))?.stdout ?? ""
        return shown.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 4 else { return nil }
            let program = line.range(of: "((\"").map { line[$0.upperBound...].prefix { $0 != "\"" } } ?? ""
            return "\(fields[3]) \(program)"
        }
    }

    func remove() {
        for name in [server, client] { _ = try? runProcess("/usr/sbin/ip", ["netns", "del", name], timeout: 20) }
    }

    deinit { remove() }

    struct NamespaceError: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }
}
