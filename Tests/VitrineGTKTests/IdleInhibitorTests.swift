import Foundation
import Testing
import VitrineTestSupport

extension WebKitTests {
    /// A kiosk keeps the screen on through the session's ScreenSaver service and hands its
    /// inhibition back when its window closes (a stand-in service on a private bus).
    @Suite
    struct IdleInhibitorTests {
        @Test func theKioskReleasesItsScreenSaverInhibitionWhenItCloses() throws {
            let bus = try PrivateSessionBus()
            defer { bus.stop() }
            let service = Process()
            service.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
            service.arguments = [URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("Support/fake_screensaver.py").path]
            service.environment = bus.environment
            let calls = Pipe()
            service.standardOutput = calls
            service.standardError = FileHandle.nullDevice
            try service.run()
            defer { kill(service.processIdentifier, SIGKILL) }
            try #require(firstLine(of: calls).hasPrefix("READY"), "the stand-in ScreenSaver service did not start")

            // The page closes its own window once loaded: the container tears down, then the program ends.
            let server = try LoopbackHTTPServer(pages: [
                "close.html": "<!doctype html><title>closing</title><script>onload = () => setTimeout(() => window.close(), 100)</script>"])
            defer { server.stop() }
            let events = FileManager.default.temporaryDirectory.appendingPathComponent("vitrine-inhibit-\(UUID().uuidString).jsonl")
            defer { try? FileManager.default.removeItem(at: events) }
            let run = try runProcess(try BuiltProducts.path("vitrine"), [
                "--preset", "kiosk", "--no-fullscreen", "--events", events.path, server.url("close.html").absoluteString,
            ], timeout: 60, environment: bus.environment)
            #expect(run.status == 0, "\(run.stderr)")

            kill(service.processIdentifier, SIGKILL)
            let lines = String(decoding: calls.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                .split(separator: "\n").map(String.init)
            let inhibit = try #require(lines.first { $0.hasPrefix("Inhibit ") }, "no Inhibit call: \(lines)")
            let cookie = inhibit.split(separator: " ")[1]
            #expect(inhibit.hasSuffix(" vitrine"))
            #expect(lines.contains("UnInhibit \(cookie)"), "the same cookie handed back: \(lines)")
            let log = (try? String(contentsOf: events, encoding: .utf8)) ?? ""
            #expect(log.contains("org.freedesktop.ScreenSaver"), "the events log says how the screen is kept on")
        }
    }
}
