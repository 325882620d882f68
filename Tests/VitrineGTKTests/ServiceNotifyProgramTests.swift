import Foundation
import Glibc
import Testing
import VitrineTestSupport

extension WebKitTests {
    /// The kiosk unit's `Type=notify` and `WatchdogSec=`: the real `vitrine` speaks
    /// systemd's notify protocol to a datagram socket the test binds (an abstract name,
    /// as `NOTIFY_SOCKET="@…"` gives), with no systemd involved.
    @Suite
    struct ServiceNotifyProgramTests {
        @Test func readyAfterTheFirstPagePingsFromTheMainLoopAndStoppingAtExit() throws {
            // The start page takes 3 s to answer: pings come meanwhile, READY only after it.
            let server = try LoopbackHTTPServer(pages: ["index.html": "<!doctype html><title>up</title>up"])
            defer { server.stop() }
            let folder = try ConfigFolder()
            let start = server.url("slow?ms=3000").absoluteString
            let config = try folder.write("kiosk.toml", """
                preset = "kiosk"
                start-url = "\(start)"
                [window]
                fullscreen = false
                """)
            let socket = try NotifySocket()
            var environment = ProcessInfo.processInfo.environment
            environment["NOTIFY_SOCKET"] = socket.address
            environment["WATCHDOG_USEC"] = "1000000"  // a ping every 0.5 s
            let kiosk = try ProgramRun(["--config", config, "--new-instance"], environment: environment)
            defer { kiosk.kill() }

            let untilReady = socket.receive(until: { $0.hasPrefix("READY=1") }, timeout: 10)
            #expect(untilReady.last == "READY=1\nSTATUS=Showing \(start)", "\(untilReady); stderr: \(kiosk.standardError)")
            #expect(untilReady.dropLast().allSatisfy { $0 == "WATCHDOG=1" }, "\(untilReady)")
            #expect(untilReady.count >= 4, "pings while the slow page loaded, READY only once it was shown: \(untilReady)")
            #expect(server.requestedPaths.contains("/slow?ms=3000"))

            // No child of the program inherited the variables (GLib's session bus, WebKit's processes).
            let children = descendants(of: kiosk.process.processIdentifier)
            #expect(!children.isEmpty, "WebKit's processes")
            for child in children {
                let environ = procFile("/proc/\(child)/environ")
                let names = environ.split(separator: 0).map { String(decoding: $0, as: UTF8.self).prefix { $0 != "=" } }
                #expect(!names.contains("NOTIFY_SOCKET") && !names.contains("WATCHDOG_USEC"), "process \(child) inherited them")
            }

            // A stopped main loop stops the pings; they resume with it.
            #expect(socket.receive(timeout: 2) == "WATCHDOG=1")
            kill(kiosk.process.processIdentifier, SIGSTOP)
            while socket.receive(timeout: 0) != nil {}  // one sent just before the stop
            #expect(socket.receive(timeout: 2.5) == nil, "a stopped process sent something")
            kill(kiosk.process.processIdentifier, SIGCONT)
            #expect(socket.receive(timeout: 3) == "WATCHDOG=1", "the pings resume")

            #expect(kiosk.end())
            let last = socket.receive(until: { $0 == "STOPPING=1" }, timeout: 10)
            #expect(last.last == "STOPPING=1", "\(last)")
            #expect(kiosk.process.terminationStatus == 0)
        }

        /// A first page that cannot load: ready once the error page shows it.
        @Test func readyWithTheErrorPageWhenTheStartPageIsDown() throws {
            let folder = try ConfigFolder()
            let down = "http://127.0.0.1:\(try freePort())/"
            let config = try folder.write("kiosk.toml", """
                preset = "kiosk"
                start-url = "\(down)"
                [window]
                fullscreen = false
                """)
            let socket = try NotifySocket()
            var environment = ProcessInfo.processInfo.environment
            environment["NOTIFY_SOCKET"] = socket.address
            environment.removeValue(forKey: "WATCHDOG_USEC")
            let kiosk = try ProgramRun(["--config", config, "--new-instance"], environment: environment)
            defer { kiosk.kill() }
            let ready = socket.receive(until: { $0.hasPrefix("READY=1") }, timeout: 30)
            #expect(ready == ["READY=1\nSTATUS=Error page: network \(down)"], "no pings without WATCHDOG_USEC: \(ready)")
            #expect(kiosk.end())
        }

        /// Every process below `pid` (its children's children included).
        private func descendants(of pid: Int32) -> [Int32] {
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
            var parents: [Int32: Int32] = [:]
            for entry in entries {
                guard let child = Int32(entry),
                      let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                      let close = stat.lastIndex(of: ")") else { continue }
                let fields = stat[stat.index(after: close)...].split(separator: " ")
                if fields.count > 1, let parent = Int32(fields[1]) { parents[child] = parent }
            }
            var found: [Int32] = []
            var frontier: Set<Int32> = [pid]
            while !frontier.isEmpty {
                let next = parents.filter { frontier.contains($0.value) }.map(\.key)
                found += next
                frontier = Set(next)
            }
            return found
        }
    }
}
