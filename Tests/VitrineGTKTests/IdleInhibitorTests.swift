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
            let kiosk = Process()
            kiosk.executableURL = URL(fileURLWithPath: try BuiltProducts.path("vitrine"))
            kiosk.arguments = ["--preset", "kiosk", "--no-fullscreen", "--new-instance", "--events", events.path, page]
            kiosk.environment = bus.environment
            kiosk.standardOutput = FileHandle.nullDevice
            kiosk.standardError = FileHandle.nullDevice
            try kiosk.run()
            defer { if kiosk.isRunning { kill(kiosk.processIdentifier, SIGKILL) } }
            func log() -> String { (try? String(contentsOf: events, encoding: .utf8)) ?? "" }
            func loaded() -> Bool {
                log().split(separator: "\n").contains { line in
                    let entry = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
                    return entry?["event"] as? String == "finished" && entry?["url"] as? String == page
                }
            }
            let deadline = Date().addingTimeInterval(30)
            while !loaded() && Date() < deadline { usleep(20_000) }
            try #require(loaded(), "the kiosk loaded its page: \(log())")
            kill(kiosk.processIdentifier, SIGTERM)
            kiosk.waitUntilExit()
            #expect(kiosk.terminationStatus == 0)

            let lines = service.stop()
            let inhibit = try #require(lines.first { $0.hasPrefix("Inhibit ") }, "no Inhibit call: \(lines)")
            let cookie = inhibit.split(separator: " ")[1]
            #expect(inhibit.hasSuffix(" vitrine"))
            #expect(lines.contains("UnInhibit \(cookie)"), "the same cookie handed back: \(lines)")
            #expect(log().contains("org.freedesktop.ScreenSaver"), "the events log says how the screen is kept on")
        }
    }
}
