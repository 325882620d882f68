import Foundation
import Testing
import VitrineTestSupport

extension WebKitTests {
    /// A kiosk, and a page granted `power`, keep the screen on through the session's
    /// ScreenSaver service and hand their inhibitions back when they end (a stand-in
    /// service on a private bus).
    @Suite
    struct IdleInhibitorTests {
        @Test func theKioskReleasesItsScreenSaverInhibitionWhenItEnds() throws {
            let bus = try PrivateSessionBus()
            defer { bus.stop() }
            let service = try StandInService("fake_screensaver.py", bus: bus)
            defer { kill(service.process.processIdentifier, SIGKILL) }

            // SIGTERM once the page has loaded: the program tears its kiosk down, then ends.
            let server = try LoopbackHTTPServer(pages: ["index.html": "<!doctype html><title>kiosk</title>"])
            defer { server.stop() }
            let page = server.url("index.html").absoluteString
            let events = FileManager.default.temporaryDirectory.appendingPathComponent("vitrine-inhibit-\(UUID().uuidString).jsonl")
            defer { try? FileManager.default.removeItem(at: events) }
            let kiosk = try ProgramRun(["--preset", "kiosk", "--no-fullscreen", "--new-instance", "--events", events.path, page],
                                       environment: bus.environment)
            defer { kiosk.kill() }
            let loaded = kiosk.waitForEvent { $0["event"] as? String == "finished" && $0["url"] as? String == page }
            try #require(loaded != nil, "the kiosk loaded its page: \(kiosk.events)")
            kiosk.end()
            #expect(kiosk.process.terminationStatus == 0)

            let lines = service.stop()
            let inhibit = try #require(lines.first { $0.hasPrefix("Inhibit ") }, "no Inhibit call: \(lines)")
            let cookie = inhibit.split(separator: " ")[1]
            #expect(inhibit.hasSuffix(" vitrine Kiosk"), "the application and the reason: \(inhibit)")
            #expect(lines.contains("UnInhibit \(cookie)"), "the same cookie handed back: \(lines)")
            let idle = kiosk.events.filter { ($0["action"] as? String)?.hasSuffix("inhibit-idle") == true }
                .map { "\($0["action"] ?? "") \($0["detail"] ?? "")" }
            #expect(idle == ["inhibit-idle Kiosk (org.freedesktop.ScreenSaver)", "uninhibit-idle Kiosk"],
                    "the events log says why and how the screen is kept on, and when it is let go")
        }

        /// A page granted `power` keeps the screen awake with its reason and lets it sleep; its
        /// second hold (asked for again and again: one inhibition) ends when it navigates away;
        /// a sandboxed frame of it is refused.
        @Test func aPageKeepsTheScreenAwakeUntilItLetsGoOrNavigatesAway() throws {
            let bus = try PrivateSessionBus()
            defer { bus.stop() }
            let service = try StandInService("fake_screensaver.py", bus: bus)
            defer { kill(service.process.processIdentifier, SIGKILL) }
            let server = try LoopbackHTTPServer(pages: [
                "index.html": """
                    <!doctype html><title>video</title><script>
                    const attempt = async (call) => { try { return String(await call()); } catch (e) { return e.message; } };
                    const inSandbox = () => new Promise((resolve) => {
                      addEventListener('message', (m) => resolve(m.data), {once: true});
                      const frame = document.createElement('iframe');
                      frame.sandbox = 'allow-scripts';
                      frame.srcdoc = `<script>vitrine.power.keepAwake('Stolen')
                        .then(() => parent.postMessage('kept', '*'), (e) => parent.postMessage(e.message, '*'));<\\/script>`;
                      document.body.append(frame);
                    });
                    (async () => {
                      const results = [await attempt(() => vitrine.power.keepAwake('Playing the video')),
                                       await attempt(() => vitrine.power.allowSleep()),
                                       await inSandbox(),
                                       await attempt(() => vitrine.power.keepAwake('Showing the slides')),
                                       ...await Promise.all([1, 2, 3].map(() => attempt(() => vitrine.power.keepAwake('Again'))))];
                      await fetch('/results?' + encodeURIComponent(results.join('|')));
                      location.href = 'other.html';
                    })();
                    </script>
                    """,
                "other.html": "<!doctype html><title>other</title>",
            ])
            defer { server.stop() }
            let origin = "http://127.0.0.1:\(server.port)"
            let folder = try ConfigFolder()
            let config = try folder.write("app.toml", """
                start-url = "\(origin)/index.html"
                [capabilities]
                "\(origin)" = ["power"]
                """)
            let app = try ProgramRun(["--config", config, "--new-instance", "--events", folder.path + "/events.jsonl"],
                                     environment: bus.environment)
            defer { app.kill() }
            try #require(server.waitForRequests { $0.contains { $0.hasPrefix("/results?") } }, "\(server.requestedPaths)\n\(app.standardError)")
            let results = server.requestedPaths.first { $0.hasPrefix("/results?") }.map { $0.dropFirst(9).removingPercentEncoding ?? "" }
            let answers = (results ?? "").split(separator: "|").map(String.init)
            // Asked again while holding: the first hold stays, no second inhibition.
            #expect(answers.count == 7 && answers[0] == "true" && answers[1] == "true" && answers[3...] == ["true", "true", "true", "true"],
                    "\(answers)")
            #expect(answers.count == 7 && answers[2].hasPrefix(#"capability "power" is not granted"#), "the sandboxed frame: \(answers)")

            // Navigated away: the second hold goes with its document.
            let idle = { app.events.filter { ($0["action"] as? String)?.hasSuffix("inhibit-idle") == true }
                .map { "\($0["action"] ?? "") \($0["detail"] ?? "")" } }
            #expect(app.wait { idle().contains("uninhibit-idle Showing the slides") }, "\(app.events)")
            #expect(idle() == ["inhibit-idle Playing the video (org.freedesktop.ScreenSaver)", "uninhibit-idle Playing the video",
                               "inhibit-idle Showing the slides (org.freedesktop.ScreenSaver)", "uninhibit-idle Showing the slides"])
            #expect(app.end())
            let lines = service.stop()
            let inhibits = lines.filter { $0.hasPrefix("Inhibit ") }
            #expect(inhibits.map { $0.split(separator: " ").dropFirst(2).joined(separator: " ") }
                == ["vitrine Playing the video", "vitrine Showing the slides"], "\(lines)")
            let cookies = inhibits.map { $0.split(separator: " ")[1] }
            #expect(lines.filter { $0.hasPrefix("UnInhibit ") } == cookies.map { "UnInhibit \($0)" }, "each cookie handed back once: \(lines)")
        }
    }
}
