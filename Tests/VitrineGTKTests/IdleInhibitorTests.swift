import Foundation
import Testing
import VitrineTestSupport

extension WebKitTests {
    /// A kiosk keeps the screen on through the session's ScreenSaver service and hands its
    /// inhibition back when it ends (a stand-in service on a private bus).
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
    }
}
