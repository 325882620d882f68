import Foundation
import Glibc
import Testing
import VitrineTestSupport

extension WebKitTests {
    /// `[remote.vnc]` seen from the network: the real `vitrine` runs in a network namespace
    /// of its own with a real `x11vnc` on the Xvfb display, and a second namespace on the
    /// same veth link plays a host on the kiosk's LAN (`NetworkNamespacePair`). The server
    /// answers on exactly the configured address, and a server that listens anywhere else is
    /// stopped (a stand-in `x11vnc` that opens a second socket).
    @Suite
    struct RemoteViewNetworkTests {
        private func kioskConfig(in folder: borrowing ConfigFolder, vnc: String) throws -> String {
            _ = try folder.write("www/green.html", RemoteViewProgramTests.page)
            return try RemoteViewProgramTests.kioskConfig(in: folder, start: "app://app/green.html", vnc: vnc, extra: #"app-dir = "www""#)
        }

        /// The kiosk, started inside `namespace`.
        private func kiosk(in namespace: String, config: String, folder: borrowing ConfigFolder) throws -> ProgramRun {
            try ProgramRun(["netns", "exec", namespace, try BuiltProducts.path("vitrine"), "--config", config, "--new-instance",
                            "--events", folder.path + "/events.jsonl"], executable: "/usr/sbin/ip")
        }

        private func waitUntil(timeout: TimeInterval = 20, _ condition: () -> Bool) -> Bool {
            let deadline = Date().addingTimeInterval(timeout)
            while !condition() {
                if Date() > deadline { return false }
                usleep(50_000)  // sockets in /proc: nothing to be woken by
            }
            return true
        }

        /// The default (127.0.0.1:5900): x11vnc serves loopback, and a host on the LAN finds
        /// nothing listening at any of the kiosk's addresses, IPv4, IPv6 or link-local.
        @Test func theDefaultViewAnswersNoOneOnTheNetwork() throws {
            let lan = try NetworkNamespacePair()
            defer { lan.remove() }
            let linkLocal = try #require(lan.serverLinkLocal())
            let folder = try ConfigFolder()
            let kiosk = try kiosk(in: lan.server, config: try kioskConfig(in: folder, vnc: ""), folder: folder)
            defer { kiosk.kill() }
            // The start-time check has had its say.
            #expect(kiosk.wait { kiosk.standardError.contains("x11vnc listens on 127.0.0.1:5900 only") }, "stderr: \(kiosk.standardError)")
            #expect(lan.serverListeners().filter { $0.hasSuffix(" x11vnc") } == ["127.0.0.1:5900 x11vnc"], "ss -ltnp: \(lan.serverListeners())")
            for host in [NetworkNamespacePair.serverIPv4, NetworkNamespacePair.serverIPv6, linkLocal] {
                // `closed`: the kiosk's host answered, and nothing listens there.
                #expect(lan.probe(host, 5900) == "closed", "\(host)")
            }
            #expect(kiosk.isRunning && lan.serverListeners().contains("127.0.0.1:5900 x11vnc"), "still serving loopback")
            #expect(kiosk.end())
        }

        /// A LAN address with a password: that address answers, offering only VNC
        /// authentication (2, never None); no other address or IP version answers.
        @Test(arguments: [NetworkNamespacePair.serverIPv4, NetworkNamespacePair.serverIPv6])
        func aLANViewAnswersOnlyOnItsAddressWithAPassword(address: String) throws {
            let lan = try NetworkNamespacePair()
            defer { lan.remove() }
            let linkLocal = try #require(lan.serverLinkLocal())
            let folder = try ConfigFolder()
            let secret = try folder.write("vnc.pass", "s3cret\n")
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: secret)
            let listen = address.contains(":") ? "[\(address)]:5901" : "\(address):5901"
            let config = try kioskConfig(in: folder, vnc: "listen = \"\(listen)\"\npassword-file = \"vnc.pass\"")
            let kiosk = try kiosk(in: lan.server, config: config, folder: folder)
            defer { kiosk.kill() }
            #expect(kiosk.wait { kiosk.standardError.contains("x11vnc listens on \(listen) only") }, "stderr: \(kiosk.standardError)")
            #expect(lan.serverListeners().filter { $0.hasSuffix(" x11vnc") } == ["\(listen) x11vnc"], "ss -ltnp: \(lan.serverListeners())")
            #expect(lan.probe(address, 5901) == "security 2", "only with the password")
            let others = [NetworkNamespacePair.serverIPv4, NetworkNamespacePair.serverIPv6, linkLocal].filter { $0 != address }
            for host in others {
                for port in [5900, 5901] { #expect(lan.probe(host, port) == "closed", "\(host) \(port)") }
            }
            #expect(lan.probe(address, 5900) == "closed")
            #expect(kiosk.end())
        }

        /// A server that opens a socket the configuration does not name is stopped at once,
        /// and the kiosk says why (standard error and the events log) and stays up.
        @Test func aServerListeningElsewhereIsStopped() throws {
            let folder = try ConfigFolder()
            // A stand-in x11vnc: the configured socket, then a second one on another port.
            let fake = try folder.write("bin/x11vnc", """
                #!/usr/bin/python3
                import os, socket, sys, time
                args = sys.argv
                port = int(args[args.index("-rfbport") + 1])
                with open(os.path.dirname(__file__) + "/pid", "w") as pid:
                    pid.write(str(os.getpid()))
                first = socket.create_server((args[args.index("-listen") + 1], port))
                second = socket.create_server(("::1", 0), family=socket.AF_INET6)
                time.sleep(600)
                """)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: fake)
            let port = try freePort()
            let config = try kioskConfig(in: folder, vnc: "listen = \"127.0.0.1:\(port)\"")
            var environment = ProcessInfo.processInfo.environment
            environment["PATH"] = folder.path + "/bin:" + (environment["PATH"] ?? "/usr/bin:/bin")
            let kiosk = try ProgramRun(["--config", config, "--new-instance", "--events", folder.path + "/events.jsonl"], environment: environment)
            defer { kiosk.kill() }
            let pidFile = folder.path + "/bin/pid"
            #expect(kiosk.wait { kiosk.standardError.contains("remote view stopped") }, "stderr: \(kiosk.standardError)")
            let said = kiosk.standardError.split(separator: "\n").first { $0.contains("remote view stopped") }.map(String.init) ?? ""
            #expect(said.hasPrefix("vitrine: remote view stopped: x11vnc listens on [::1]:")
                && said.hasSuffix(", not only on 127.0.0.1:\(port)"), "\(said)")
            let event = kiosk.waitForEvent { $0["action"] as? String == "remote-view-refused" }
            #expect((event?["detail"] as? String).map { said.hasSuffix($0) } == true, "\(String(describing: event))")
            let pid = try #require(Int32((try? String(contentsOfFile: pidFile, encoding: .utf8)) ?? ""))
            #expect(waitUntil { Glibc.kill(pid, 0) != 0 || Self.isZombie(pid) }, "the stand-in x11vnc was not stopped")
            #expect(kiosk.isRunning, "the kiosk stays up")
            #expect(kiosk.end())
        }

        private static func isZombie(_ pid: Int32) -> Bool {
            ((try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? "").contains("State:\tZ")
        }
    }
}
