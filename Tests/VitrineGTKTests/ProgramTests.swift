import CWebKitGTK
import Foundation
import Testing
import VitrineTestSupport

extension WebKitTests {
    /// The `vitrine` program and the gtk_main loop, run as real processes under the same display.
    /// (What needs no display is in VitrineCLITests.)
    @Suite
    struct ProgramTests {
        @Test func theDemosScreenshotIsNotBlank() throws {
            let png = FileManager.default.temporaryDirectory.appendingPathComponent("vitrine-demo-\(UUID().uuidString).png").path
            defer { try? FileManager.default.removeItem(atPath: png) }
            let run = try runProcess(try BuiltProducts.path("vitrine"), ["--exit-after-load", "--screenshot", png], timeout: 90)
            #expect(run.status == 0, "stderr: \(run.stderr)")
            #expect(run.stderr.contains("screenshot written to \(png)"))

            var error: UnsafeMutablePointer<GError>?
            let pixbuf = try #require(gdk_pixbuf_new_from_file(png, &error), "not a PNG")
            defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
            let width = Int(gdk_pixbuf_get_width(pixbuf)), height = Int(gdk_pixbuf_get_height(pixbuf))
            #expect(width == 1024 && height == 768)
            let stride = Int(gdk_pixbuf_get_rowstride(pixbuf)), channels = Int(gdk_pixbuf_get_n_channels(pixbuf))
            let pixels = gdk_pixbuf_get_pixels(pixbuf)!
            var colours = Set<UInt32>()
            for y in Swift.stride(from: 0, to: height, by: 4) {
                for x in Swift.stride(from: 0, to: width, by: 4) {
                    let p = pixels + y * stride + x * channels
                    colours.insert(UInt32(p[0]) << 16 | UInt32(p[1]) << 8 | UInt32(p[2]))
                }
            }
            // A blank or single-colour capture has a handful of colours; the demo has text,
            // a gradient and cards.
            #expect(colours.count > 200, "only \(colours.count) colours")
        }

        @Test func eventsAreWrittenAsJSONLines() throws {
            let log = FileManager.default.temporaryDirectory.appendingPathComponent("vitrine-events-\(UUID().uuidString).jsonl").path
            defer { try? FileManager.default.removeItem(atPath: log) }
            let run = try runProcess(try BuiltProducts.path("vitrine"), ["--exit-after-load", "--events", log], timeout: 90)
            #expect(run.status == 0, "stderr: \(run.stderr)")
            let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
            let objects = try lines.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:] }
            #expect(objects.contains { $0["type"] as? String == "navigation" && $0["handler"] as? String == "default-allow"
                    && $0["policy"] as? String == "allow" && $0["url"] as? String == "app://demo/index.html" })
            #expect(objects.contains { $0["type"] as? String == "load" && $0["event"] as? String == "finished" })
        }

        /// SIGTERM (systemd stopping a kiosk, a benchmark stopping a run) ends the program as
        /// closing its window does: exit status 0, every event line written. The lines are
        /// batched per main-loop turn, so the load line showing up at all also shows that
        /// the batch is flushed while the program runs.
        @Test func sigtermEndsTheProgramCleanlyWithItsEventsWritten() throws {
            let log = FileManager.default.temporaryDirectory.appendingPathComponent("vitrine-term-\(UUID().uuidString).jsonl").path
            defer { try? FileManager.default.removeItem(atPath: log) }
            let program = try ProgramRun(["--new-instance", "--events", log])
            try #require(program.waitForEvent(timeout: 60) { $0["type"] as? String == "load" && $0["event"] as? String == "finished" } != nil,
                         "the demo's load line never reached the events file")

            #expect(program.end(timeout: 20), "still running 20 s after SIGTERM")
            #expect(program.process.terminationReason == .exit && program.process.terminationStatus == 0)
            let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
            #expect(lines.allSatisfy { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) != nil }, "whole lines only")
        }

        /// A kiosk that starts before its server (booting before the network, the backend)
        /// keeps running: the failed start page is tried again, attempt by attempt in the
        /// events log, until the server is there; SIGTERM still ends it with status 0.
        @Test func aKioskStartedBeforeItsServerWaitsForItInsteadOfExiting() throws {
            let port = try freePort()
            let url = "http://127.0.0.1:\(port)/index.html"
            let log = FileManager.default.temporaryDirectory.appendingPathComponent("vitrine-retry-\(UUID().uuidString).jsonl").path
            defer { try? FileManager.default.removeItem(atPath: log) }
            let program = try ProgramRun(["--preset", "kiosk", "--no-fullscreen", "--new-instance", "--events", log, url])
            func lines(_ action: String) -> [String] {
                program.events.filter { $0["action"] as? String == action }.compactMap { $0["detail"] as? String }
            }

            // Nothing listens: the load fails, and fails again on the next attempts.
            program.wait(timeout: 60) { lines("retry").count >= 2 }
            try #require(lines("retry").count >= 2, "stderr and events: \(lines("retry"))")
            #expect(lines("retry-load").first?.contains("1 \(url) (backoff)") == true)
            #expect(program.isRunning, "a kiosk whose start page failed must not exit")

            // The server comes up: the page is shown.
            let server = try LoopbackHTTPServer(pages: ["index.html": "<!doctype html><title>up</title>"], port: port)
            defer { server.stop() }
            program.wait(timeout: 60) { !lines("recovered").isEmpty }
            #expect(lines("recovered").first?.contains(url) == true)
            #expect(server.requestedPaths.contains("/index.html"))

            program.end()
            #expect(program.process.terminationReason == .exit && program.process.terminationStatus == 0)
        }

        /// A one-shot run still gives up on a start page that fails, with status 1.
        @Test func aOneShotRunWithADeadStartPageStillExitsNonZero() throws {
            let port = try freePort()
            let run = try runProcess(try BuiltProducts.path("vitrine"),
                                     ["--preset", "kiosk", "--no-fullscreen", "--exit-after-load", "http://127.0.0.1:\(port)/index.html"],
                                     timeout: 90)
            #expect(run.status == 1, "stderr: \(run.stderr)")
            #expect(run.stderr.contains("vitrine: error: the first load failed"))
        }

        /// The file's window size and app folder reach a real window; `--width` overrides
        /// the file's width and keeps its height.
        @Test func aConfigFileDrivesTheWindowAndFlagsOverrideIt() throws {
            let folder = try ConfigFolder()
            _ = try folder.write("www/index.html", "<!doctype html><title>configured</title><body style='background:#2a6'>configured</body>")
            let path = try folder.write("app.toml", """
                app-dir = "www"
                [window]
                width = 640
                height = 480
                """)
            let png = folder.url.appendingPathComponent("shot.png").path
            let events = folder.url.appendingPathComponent("events.jsonl").path
            let run = try runProcess(try BuiltProducts.path("vitrine"),
                                     ["--config", path, "--width", "720", "--exit-after-load", "--screenshot", png, "--events", events],
                                     timeout: 90)
            #expect(run.status == 0, "stderr: \(run.stderr)")
            let log = try String(contentsOfFile: events, encoding: .utf8)
            #expect(log.contains(#""url":"app://app/index.html""#))

            var error: UnsafeMutablePointer<GError>?
            let pixbuf = try #require(gdk_pixbuf_new_from_file(png, &error), "not a PNG")
            defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
            #expect(Int(gdk_pixbuf_get_width(pixbuf)) == 720)
            #expect(Int(gdk_pixbuf_get_height(pixbuf)) == 480)
        }

        /// Under gtk_main (the program's loop, not the test runner's), a suspending async
        /// @MainActor handler decides a real navigation: the bridge drains the main queue.
        @Test func anAsyncMainActorHandlerDecidesUnderGtkMain() throws {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vitrine-loop-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            try "<!doctype html><title>start</title><script>addEventListener('load', () => setTimeout(() => location.href = 'blocked.html', 50));</script>"
                .write(to: directory.appendingPathComponent("index.html"), atomically: true, encoding: .utf8)
            try "blocked".write(to: directory.appendingPathComponent("blocked.html"), atomically: true, encoding: .utf8)

            let run = try runProcess(try BuiltProducts.path("vitrine-loop-check"), [directory.path], timeout: 60)
            #expect(run.status == 0, "stderr: \(run.stderr)")
            // Text fields only: a `finished` line also carries its HTTP status, a number.
            let events = run.stdout.split(separator: "\n").compactMap {
                (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?.compactMapValues { $0 as? String }
            }
            #expect(events.contains { $0["url"] == "app://loop/index.html" && $0["event"] == "finished" })
            #expect(events.contains { $0["url"] == "app://loop/blocked.html" && $0["handler"] == "slow-async" && $0["policy"] == "cancel" })
            #expect(!events.contains { $0["url"] == "app://loop/blocked.html" && $0["type"] == "load" })
        }
    }
}
