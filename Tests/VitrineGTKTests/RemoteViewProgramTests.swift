import Foundation
import Glibc
import Testing
import VitrineTestSupport

extension WebKitTests {
    /// `[remote.vnc]` under X11: the real `vitrine` starts a real `x11vnc` on the Xvfb
    /// display; a real RFB client (Support/rfb_pixel.py) reads the page's colour from it.
    /// The server listens only where the configuration says, needs the password when one is
    /// set, and never outlives the kiosk — not even one killed with SIGKILL.
    @Suite
    struct RemoteViewProgramTests {
        static let page = "<!doctype html><title>green</title><style>html,body{margin:0;height:100%;background:#12ab34}</style>"

        /// A windowed kiosk's configuration on `start` with `[remote.vnc]` `vnc` (`extra`: more top-level keys).
        static func kioskConfig(in folder: borrowing ConfigFolder, start: String, vnc: String, extra: String = "") throws -> String {
            try folder.write("kiosk.toml", """
                preset = "kiosk"
                start-url = "\(start)"
                \(extra)
                [window]
                fullscreen = false
                width = 800
                height = 600
                [remote.vnc]
                \(vnc)
                """)
        }

        /// The colour at (x, y) through VNC, or the client's refusal (`auth 2`).
        private func pixel(port: Int, x: Int = 400, y: Int = 300) -> String {
            let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Support/rfb_pixel.py").path
            let result = try? runProcess("/usr/bin/python3", [script, "127.0.0.1", String(port), String(x), String(y)], timeout: 20)
            return result.map { $0.stdout.trimmingCharacters(in: .whitespacesAndNewlines) + $0.stderr } ?? "no client"
        }

        @Test func aKioskIsSeenLiveThroughVNCOnLoopbackOnly() throws {
            let server = try LoopbackHTTPServer(pages: ["green.html": Self.page])
            defer { server.stop() }
            let folder = try ConfigFolder()
            let port = try freePort()
            let config = try Self.kioskConfig(in: folder, start: server.url("green.html").absoluteString, vnc: "listen = \"127.0.0.1:\(port)\"")
            let kiosk = try ProgramRun(["--config", config, "--new-instance", "--events", folder.path + "/events.jsonl"])
            defer { kiosk.kill() }
            try #require(kiosk.waitForEvent(timeout: 60) { $0["type"] as? String == "load" && $0["event"] as? String == "finished" } != nil,
                         "stderr: \(kiosk.standardError)")
            // The page is painted a moment after its load finishes: the frame is read until it shows it.
            var seen = ""
            let deadline = Date().addingTimeInterval(20)
            while seen != "#12ab34" && Date() < deadline { seen = pixel(port: port) }
            #expect(seen == "#12ab34", "stderr: \(kiosk.standardError)")

            let servers = x11vncProcesses(port: port)
            #expect(servers.count == 1, "\(servers)")
            #expect(listeners(port: port) == ["127.0.0.1"], "listens only where configured")
            #expect(kiosk.events.allSatisfy { !$0.keys.contains("PORT") }, "x11vnc's output stays out of the events")

            #expect(kiosk.end())
            #expect(waitUntil { x11vncProcesses(port: port).isEmpty }, "x11vnc outlived the kiosk: \(x11vncProcesses(port: port))")
            #expect(listeners(port: port).isEmpty)
        }

        /// With a password file, a viewer without the password is offered only VNC
        /// authentication; a kiosk killed outright still takes its server with it.
        @Test func aPasswordIsRequiredAndAKilledKioskLeavesNoServer() throws {
            let server = try LoopbackHTTPServer(pages: ["green.html": Self.page])
            defer { server.stop() }
            let folder = try ConfigFolder()
            let secret = try folder.write("vnc.pass", "s3cret\n")
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: secret)
            let port = try freePort()
            let config = try Self.kioskConfig(in: folder, start: server.url("green.html").absoluteString,
                                         vnc: "listen = \"127.0.0.1:\(port)\"\npassword-file = \"vnc.pass\"")
            let kiosk = try ProgramRun(["--config", config, "--new-instance"])
            defer { kiosk.kill() }
            #expect(waitUntil { !listeners(port: port).isEmpty }, "stderr: \(kiosk.standardError)")
            #expect(pixel(port: port) == "auth 2", "no way in without the password")

            Glibc.kill(kiosk.process.processIdentifier, SIGKILL)
            #expect(waitUntil { x11vncProcesses(port: port).isEmpty }, "x11vnc outlived a killed kiosk")
        }

        /// A server that cannot run is reported; the kiosk stays up and shows its page.
        @Test func aServerThatFailsLeavesTheKioskUp() throws {
            let server = try LoopbackHTTPServer(pages: ["green.html": Self.page])
            defer { server.stop() }
            let folder = try ConfigFolder()
            let bin = folder.path + "/bin"
            try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: bin + "/x11vnc", withDestinationPath: "/bin/false")
            let config = try Self.kioskConfig(in: folder, start: server.url("green.html").absoluteString, vnc: "")
            var environment = ProcessInfo.processInfo.environment
            environment["PATH"] = bin + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
            let kiosk = try ProgramRun(["--config", config, "--new-instance", "--events", folder.path + "/events.jsonl"], environment: environment)
            defer { kiosk.kill() }
            #expect(kiosk.wait { kiosk.standardError.contains("remote view: x11vnc ended with status 1") }, "stderr: \(kiosk.standardError)")
            #expect(kiosk.waitForEvent(timeout: 60) { $0["type"] as? String == "load" && $0["event"] as? String == "finished" } != nil)
            #expect(kiosk.isRunning)
            #expect(kiosk.end())
        }

        /// check-config refuses a view open to the network without a password.
        @Test func checkConfigRefusesAnOpenViewOnTheNetwork() throws {
            let folder = try ConfigFolder()
            let config = try folder.write("open.toml", "[remote.vnc]\nlisten = \"192.168.10.21:5900\"\n")
            let checked = try runProcess(try BuiltProducts.path("vitrine"), ["check-config", config])
            #expect(checked.status != 0, "\(checked)")
            #expect(checked.stderr.contains("remote.vnc.listen '192.168.10.21:5900' is reachable from the network"), "\(checked)")
        }

        private func waitUntil(timeout: TimeInterval = 15, _ condition: () -> Bool) -> Bool {
            let deadline = Date().addingTimeInterval(timeout)
            while !condition() {
                if Date() > deadline { return false }
                usleep(50_000)  // polling /proc: nothing to be woken by
            }
            return true
        }

        /// The x11vnc processes serving `port`.
        private func x11vncProcesses(port: Int) -> [Int32] {
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
            return entries.compactMap { entry in
                guard let pid = Int32(entry),
                      let data = try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(entry)/cmdline")) else { return nil }
                let arguments = data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
                guard arguments.first.map({ $0.hasSuffix("x11vnc") }) == true,
                      let flag = arguments.firstIndex(of: "-rfbport"), arguments.indices.contains(flag + 1),
                      arguments[flag + 1] == String(port) else { return nil }
                // A zombie has ended; only its parent's wait is missing.
                let status = (try? String(contentsOfFile: "/proc/\(entry)/status", encoding: .utf8)) ?? ""
                return status.contains("State:\tZ") ? nil : pid
            }
        }

        /// The addresses with a listening TCP socket on `port` (IPv4 dotted, IPv6 as hex).
        private func listeners(port: Int) -> [String] {
            let hexPort = String(format: "%04X", port)
            var found: [String] = []
            for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
                let lines = ((try? String(contentsOfFile: table, encoding: .utf8)) ?? "").split(separator: "\n").dropFirst()
                for line in lines {
                    let fields = line.split(separator: " ")
                    guard fields.count > 3, fields[3] == "0A" else { continue }
                    let local = fields[1].split(separator: ":")
                    guard local.count == 2, local[1] == hexPort else { continue }
                    let address = String(local[0])
                    if address.count == 8, let value = UInt32(address, radix: 16) {
                        found.append([0, 8, 16, 24].map { String((value >> $0) & 0xff) }.joined(separator: "."))
                    } else {
                        found.append(address)
                    }
                }
            }
            return found
        }
    }
}
