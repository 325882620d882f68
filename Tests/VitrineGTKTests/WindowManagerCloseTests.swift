import Foundation
import Testing
import VitrineTestSupport

extension WebKitTests {
    /// A real window manager's close request (`_NET_CLOSE_WINDOW`, as Alt+F4 or a title
    /// bar's button sends it) under Debian's openbox: a kiosk refuses it and stays up; an
    /// app closes. Bare Xvfb has no window manager, so the request would never be made.
    @Suite
    struct WindowManagerCloseTests {
        /// Runs the program on `preset` under openbox, asks the window manager to close its
        /// window once the page has loaded, and returns the events log and whether the
        /// program was still running after the request was handled.
        private func closeRequest(preset: String) throws -> (events: String, survived: Bool) {
            let server = try LoopbackHTTPServer(pages: ["index.html": "<!doctype html><title>wm close</title>"])
            defer { server.stop() }
            let windowManager = Process()
            windowManager.executableURL = URL(fileURLWithPath: "/usr/bin/openbox")
            windowManager.arguments = ["--sm-disable"]
            windowManager.standardOutput = FileHandle.nullDevice
            windowManager.standardError = FileHandle.nullDevice
            try windowManager.run()
            defer { kill(windowManager.processIdentifier, SIGKILL); windowManager.waitUntilExit() }

            let folder = try ConfigFolder()
            let events = folder.path + "/events.jsonl"
            let program = Process()
            program.executableURL = URL(fileURLWithPath: try BuiltProducts.path("vitrine"))
            program.arguments = ["--preset", preset, "--no-fullscreen", "--new-instance", "--events", events,
                                 server.url("index.html").absoluteString]
            program.standardOutput = FileHandle.nullDevice
            program.standardError = FileHandle.nullDevice
            try program.run()
            defer { if program.isRunning { kill(program.processIdentifier, SIGKILL) } }
            func log() -> String { (try? String(contentsOfFile: events, encoding: .utf8)) ?? "" }
            func wait(_ fact: () -> Bool) -> Bool {
                let deadline = Date().addingTimeInterval(30)
                while !fact() && Date() < deadline { usleep(50_000) }
                return fact()
            }

            // The page loaded (the log is written once per turn of the main loop), and openbox
            // manages the window: it is in the window manager's client list.
            try #require(wait { log().contains(#""event":"finished""#) }, "the page loaded: \(log())")
            let pid = " \(program.processIdentifier) "
            func managedWindow() -> String? {
                let clients = (try? runProcess("/usr/bin/wmctrl", ["-l", "-p"]).stdout) ?? ""
                return clients.split(separator: "\n").first { $0.contains(pid) }.map { String($0.prefix { $0 != " " }) }
            }
            try #require(wait { managedWindow() != nil }, "openbox manages the window")
            let window = try #require(managedWindow())

            let close = try runProcess("/usr/bin/wmctrl", ["-i", "-c", window])
            try #require(close.status == 0, "wmctrl: \(close.stderr)")
            let handled = wait { !program.isRunning || log().contains(#""action":"blocked-close""#) }
            #expect(handled, "the request reached the program")
            let survived = program.isRunning
            if survived {
                kill(program.processIdentifier, SIGTERM)
                program.waitUntilExit()
                #expect(program.terminationStatus == 0, "SIGTERM still ends it cleanly")
            }
            return (log(), survived)
        }

        @Test func aKioskRefusesTheWindowManagersCloseRequestAndAnAppCloses() throws {
            let kiosk = try closeRequest(preset: "kiosk")
            #expect(kiosk.survived, "a kiosk stays up")
            #expect(kiosk.events.contains(#""action":"blocked-close","detail":"window-manager""#), "\(kiosk.events)")

            let app = try closeRequest(preset: "app")
            #expect(!app.survived, "an app's window closes and the program ends")
            #expect(!app.events.contains("blocked-close"))
        }
    }
}
