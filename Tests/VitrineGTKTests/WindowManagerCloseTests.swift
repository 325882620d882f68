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
        private func closeRequest(preset: String) throws -> (events: [[String: Any]], survived: Bool) {
            let server = try LoopbackHTTPServer(pages: ["index.html": "<!doctype html><title>wm close</title>"])
            defer { server.stop() }
            let windowManager = try Openbox()
            defer { windowManager.stop() }

            let folder = try ConfigFolder()
            let events = folder.path + "/events.jsonl"
            let program = try ProgramRun(["--preset", preset, "--no-fullscreen", "--new-instance", "--events", events,
                                          server.url("index.html").absoluteString])
            defer { program.kill() }

            // The page loaded (the log is written once per turn of the main loop), and openbox
            // manages the window: it is in the window manager's client list.
            try #require(program.waitForEvent { $0["event"] as? String == "finished" } != nil, "the page loaded: \(program.events)")
            let window = try #require(try windowManager.managedWindow(of: program.process.processIdentifier), "openbox manages the window")

            let close = try runProcess("/usr/bin/wmctrl", ["-i", "-c", window])
            try #require(close.status == 0, "wmctrl: \(close.stderr)")
            let handled = program.wait { program.events.contains { $0["action"] as? String == "blocked-close" } }
            #expect(handled || !program.isRunning, "the request reached the program")
            let survived = program.isRunning
            if survived {
                program.end()
                #expect(program.process.terminationStatus == 0, "SIGTERM still ends it cleanly")
            }
            return (program.events, survived)
        }

        @Test func aKioskRefusesTheWindowManagersCloseRequestAndAnAppCloses() throws {
            let kiosk = try closeRequest(preset: "kiosk")
            #expect(kiosk.survived, "a kiosk stays up")
            #expect(kiosk.events.contains { $0["action"] as? String == "blocked-close" && $0["detail"] as? String == "window-manager" },
                    "\(kiosk.events)")

            let app = try closeRequest(preset: "app")
            #expect(!app.survived, "an app's window closes and the program ends")
            #expect(!app.events.contains { $0["action"] as? String == "blocked-close" })
        }
    }
}
