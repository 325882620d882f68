import Foundation
import Testing
import VitrineTestSupport

extension WebKitTests {
    /// `[kiosk] web-memory-limit`: a page that leaks is killed at the limit and recovered
    /// like a crash. The limit belongs to the process's web context, which the first
    /// container makes, so it is tested in a program of its own.
    @Suite
    struct WebMemoryLimitTests {
        /// Holds on to 64 MB more every 50 ms, up to 640 MB (a bound for a broken limit).
        static let leak = """
            <!doctype html><title>leak</title><script>
            const hog = [];
            (function grow() {
              for (let i = 0; i < 8; i++) { const block = new Uint8Array(8 << 20); block.fill(1); hog.push(block); }
              if (hog.length < 80) setTimeout(grow, 50);
            })();
            </script>
            """

        @Test func aLeakingPageIsKilledAtTheLimitAndRecovered() throws {
            let server = try LoopbackHTTPServer(pages: ["leak.html": Self.leak])
            defer { server.stop() }
            let folder = try ConfigFolder()
            let config = try folder.write("kiosk.toml", """
                preset = "kiosk"
                start-url = "\(server.url("leak.html").absoluteString)"
                [window]
                fullscreen = false
                [kiosk]
                web-memory-limit = 300
                crash-loop-limit = 10
                """)
            let log = folder.path + "/events.jsonl"
            let program = try ProgramRun(["--config", config, "--new-instance", "--events", log])
            defer { program.kill() }
            func natives() -> [(action: String, detail: String)] {
                program.events.compactMap { entry in
                    guard let action = entry["action"] as? String else { return nil }
                    return (action, entry["detail"] as? String ?? "")
                }
            }
            program.wait(timeout: 45) { natives().contains { $0.action == "recover" } }

            let seen = natives()
            #expect(seen.contains { $0 == ("web-process-terminated", "exceeded-memory-limit") }, "\(seen)")
            #expect(seen.contains { $0.action == "recover" && $0.detail == server.url("leak.html").absoluteString })
            #expect(program.isRunning, "the kiosk lives on")
            program.end()
        }
    }
}
