import Foundation
import Glibc
import Testing
import Vitrine
import VitrineTestSupport

extension WebKitTests {
    /// `[[sidecars]]` through the built program, with a real sidecar (Support/sidecar.py, a
    /// small Python HTTP server): it crashes at its first start and is restarted
    /// (`on-failure`), becomes ready by its HTTP path, floods its output (bounded in the
    /// events log), and the page reads its port with `vitrine.sidecars.get` and reaches it;
    /// a hung one is reported failed; `kill -9` of Vitrine leaves no sidecar process, and an
    /// orderly quit ends the sidecar and its process group.
    @Suite
    struct SidecarProgramTests {
        static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Support/sidecar.py").path

        /// Whether process `pid` is gone (or a zombie waiting for its parent).
        static func isGone(_ pid: Int32) -> Bool {
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")")
            else { return true }
            return stat[stat.index(after: close)...].dropFirst().first == "Z"
        }

        /// The pids of process group `group`'s living members, from /proc.
        static func members(of group: Int32) -> [Int32] {
            let pids = (try? FileManager.default.contentsOfDirectory(atPath: "/proc"))?.compactMap { Int32($0) } ?? []
            return pids.filter { pid in
                guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")")
                else { return false }
                let fields = stat[stat.index(after: close)...].split(separator: " ")
                return fields.count > 2 && fields[0] != "Z" && Int32(fields[2]) == group
            }
        }

        /// Waits (10 s at most) until every process of `group` has ended; whether they did.
        static func groupEnds(_ group: Int32) -> Bool {
            let deadline = Date().addingTimeInterval(10)
            while Date() < deadline {
                if members(of: group).isEmpty { return true }
                usleep(20_000)
            }
            return false
        }

        private func app(in folder: String, sidecars: String) throws -> String {
            try FileManager.default.createDirectory(atPath: folder + "/bin", withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: folder + "/web", withIntermediateDirectories: true)
            try "#!/bin/sh\nexec python3 \(Self.script) \"$@\"\n".write(toFile: folder + "/bin/sidecar", atomically: true, encoding: .utf8)
            chmod(folder + "/bin/sidecar", 0o755)
            try """
                <!doctype html><title>sidecars</title><script>
                let apiReady;
                const apiPort = new Promise((resolve) => { apiReady = resolve; });
                vitrine.sidecars.on('exited', async (event) => {
                  if (event.name !== 'stuck') return;
                  const port = await apiPort;
                  fetch('http://127.0.0.1:' + port + '/report-exited?' + encodeURIComponent(JSON.stringify(event)), { mode: 'no-cors' });
                });
                // Whether the hung sidecar had yet to fail when this page started listening.
                const stuckAtStart = vitrine.sidecars.get('stuck').then((stuck) => stuck.state, () => 'none');
                async function report() {
                  const got = await vitrine.sidecars.get('api');
                  if (got.state !== 'ready') return;
                  apiReady(got.port);
                  await fetch('http://127.0.0.1:' + got.port + '/report?state=' + got.state + '&port=' + got.port
                              + '&stuck-at-start=' + await stuckAtStart, { mode: 'no-cors' });
                  if (document.querySelector('iframe')) return;
                  const frame = document.createElement('iframe');  // another origin: the sidecar's own page
                  frame.src = 'http://127.0.0.1:' + got.port + '/frame.html';
                  (document.body || document.documentElement).appendChild(frame);
                }
                vitrine.sidecars.on('ready', (event) => { if (event.name === 'api') report(); });
                report();
                vitrine.sidecars.get('no-such-sidecar').catch(() => {});
                </script>
                """.write(toFile: folder + "/web/index.html", atomically: true, encoding: .utf8)
            let config = folder + "/vitrine.toml"
            try """
                app-id = "org.example.Sidecars"
                app-dir = "web"
                [capabilities]
                "app://app" = ["sidecars"]
                \(sidecars)
                """.write(toFile: config, atomically: true, encoding: .utf8)
            return config
        }

        @Test func aSidecarRestartsServesThePageAndDiesWithVitrine() throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vitrine-sidecars-\(UUID().uuidString)").path
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let config = try app(in: folder, sidecars: """
                [[sidecars]]
                name = "api"
                command = "bin/sidecar"
                args = ["serve", "\(folder)/crashed-once"]
                env = { LOG_LEVEL = "debug" }
                ready = "/health"
                restart = "on-failure"
                [[sidecars]]
                name = "stuck"
                command = "bin/sidecar"
                args = ["hang"]
                ready = "port"
                ready-timeout = 3
                """)
            let requests = folder + "/crashed-once.requests"
            let run = try ProgramRun(["--config", config, "--new-instance", "--no-fullscreen", "--events", folder + "/events.jsonl"],
                                     environment: ProgramRun.environment(dataHome: folder + "/data"), watching: [requests])
            defer { run.kill() }
            func sidecar(_ name: String, _ event: String) -> [[String: Any]] {
                run.events.filter { $0["type"] as? String == "sidecar" && $0["name"] as? String == name && $0["event"] as? String == event }
            }
            func report() -> String? {
                (try? String(contentsOfFile: requests, encoding: .utf8))?.split(separator: "\n").first { $0.hasPrefix("GET /report") }.map(String.init)
            }
            try #require(run.wait(timeout: 60) { report() != nil }, "the page read the port and reached the sidecar: \(run.standardError)")
            let ready = try #require(sidecar("api", "ready").first)
            let port = try #require(ready["port"] as? Int)
            #expect(report()?.hasPrefix("GET /report?state=ready&port=\(port)&stuck-at-start=") == true, "\(report() ?? "")")
            // The page heard the hung sidecar's end (when it started listening before that end).
            if report()?.contains("stuck-at-start=starting") == true {
                func exitedReport() -> String? {
                    (try? String(contentsOfFile: requests, encoding: .utf8))?.split(separator: "\n")
                        .first { $0.hasPrefix("GET /report-exited") }.map { String($0).removingPercentEncoding ?? String($0) }
                }
                #expect(run.wait { exitedReport() != nil }, "the page heard sidecars:exited")
                #expect(exitedReport()?.contains(#""name":"stuck""#) == true && exitedReport()?.contains(#""state":"failed""#) == true
                        && exitedReport()?.contains(#""signal":9"#) == true, "\(exitedReport() ?? "")")
            }
            // A frame of another origin (the sidecar's own page) is refused.
            func frameReport() -> String? {
                (try? String(contentsOfFile: requests, encoding: .utf8))?.split(separator: "\n").first { $0.hasPrefix("GET /report-frame") }
                    .map { String($0).removingPercentEncoding ?? String($0) }
            }
            #expect(run.wait { frameReport() != nil }, "the frame reported")
            #expect(frameReport()?.contains("refused") == true && frameReport()?.contains("granted {") == false, "\(frameReport() ?? "")")
            #expect(run.events.contains { $0["type"] as? String == "message" && $0["name"] as? String == "sidecars"
                && $0["outcome"] as? String == "rejected" && $0["origin"] as? String == "http://127.0.0.1:\(port)" },
                    "the refusal is in the events log")
            #expect(sidecar("api", "exited").first?["code"] as? Int == 3, "the first start crashed")
            #expect(sidecar("api", "restarting").count == 1 && sidecar("api", "started").count == 2)
            #expect(sidecar("api", "started").allSatisfy { $0["port"] as? Int == port }, "the port is kept across restarts")
            #expect(run.waitForEvent { $0["type"] as? String == "sidecar" && $0["name"] as? String == "stuck" && $0["event"] as? String == "failed" }
                    .flatMap { $0["detail"] as? String }?.contains("not ready within") == true, "the hung sidecar failed")
            #expect(run.waitForEvent { $0["type"] as? String == "sidecar" && $0["name"] as? String == "stuck" && $0["event"] as? String == "exited" }?["signal"]
                    as? Int == 9, "killed")
            #expect(sidecar("stuck", "failed").count == 1 && sidecar("stuck", "restarting").isEmpty, "failed once, not restarted")
            #expect(run.waitForEvent { $0["type"] as? String == "message" && $0["name"] as? String == "sidecars" && $0["outcome"] as? String == "rejected" }
                    .flatMap { $0["error"] as? String }?.contains("no sidecar named \"no-such-sidecar\"") == true)
            let output = run.events.filter { $0["type"] as? String == "sidecar-output" && $0["name"] as? String == "api" }
            #expect(output.contains { $0["line"] as? String == "LOG_LEVEL=debug" }, "its env reached it")
            let flood = output.filter { ($0["line"] as? String)?.hasPrefix("flood line") == true }.count
            #expect(flood > 0 && flood <= 100, "the flood is bounded: \(flood) lines")
            #expect(run.waitForEvent { ($0["line"] as? String)?.contains("lines of output dropped: too many") == true } != nil,
                    "what was dropped is told")

            let pid = try #require(sidecar("api", "started").last?["pid"] as? Int).int32
            #expect(Self.members(of: pid).count >= 2, "the sidecar and its child run in its group")
            run.kill()
            #expect(run.waitForExit())
            #expect(Self.groupEnds(pid), "kill -9 of vitrine left no sidecar process, nor its child: \(Self.members(of: pid))")
            #expect(Self.isGone(pid))
            for member in Self.members(of: pid) { Glibc.kill(member, SIGKILL) }  // a failed run leaves nothing either
        }

        @Test func anOrderlyQuitEndsTheSidecarAndItsGroup() throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vitrine-sidecars-\(UUID().uuidString)").path
            defer { try? FileManager.default.removeItem(atPath: folder) }
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            FileManager.default.createFile(atPath: folder + "/crashed-once", contents: nil)
            let config = try app(in: folder, sidecars: """
                [[sidecars]]
                name = "api"
                command = "bin/sidecar"
                args = ["serve", "\(folder)/crashed-once"]
                ready = "port"
                restart = "always"
                """)
            let run = try ProgramRun(["--config", config, "--new-instance", "--no-fullscreen", "--events", folder + "/events.jsonl"],
                                     environment: ProgramRun.environment(dataHome: folder + "/data"))
            defer { run.kill() }
            let ready = run.waitForEvent(timeout: 60) { $0["type"] as? String == "sidecar" && $0["event"] as? String == "ready" }
            try #require(ready != nil, "\(run.standardError)")
            let started = try #require(run.events.first { $0["type"] as? String == "sidecar" && $0["event"] as? String == "started" })
            let pid = try #require(started["pid"] as? Int).int32
            #expect(Self.members(of: pid).count >= 2, "the sidecar and its child (started before it listens) share a group")
            #expect(run.end(), "vitrine quits on SIGTERM")
            #expect(run.process.terminationStatus == 0)
            #expect(Self.members(of: pid).isEmpty, "the group ended with the app: \(Self.members(of: pid))")
            #expect(run.events.contains { $0["type"] as? String == "sidecar" && $0["event"] as? String == "stopped" })
            #expect(!run.events.contains { $0["type"] as? String == "sidecar" && $0["event"] as? String == "restarting" },
                    "the app's own stop is not restarted")
        }
    }
}

private extension Int {
    var int32: Int32 { Int32(self) }
}
