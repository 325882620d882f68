import Foundation
import Testing
import VitrineTestSupport

extension WebKitTests {
    /// `[[displays]]` on two real monitors: Weston's X11 backend with two outputs inside the
    /// test's Xvfb, the program on it through GDK's Wayland backend (under Xvfb alone GDK 3
    /// sees one monitor, whatever Xinerama or RandR setup). Each display's window opens
    /// with its own page and GDK puts it on the monitor its table names.
    @Suite
    struct DisplaysProgramTests {
        @Test func twoMonitorsGetAWindowEachWithItsOwnPage() throws {
            let weston = "/usr/bin/weston"
            try #require(FileManager.default.isExecutableFile(atPath: weston), "weston is not installed (make deps installs it)")
            let folder = try ConfigFolder()
            _ = try folder.write("www/a.html", "<!doctype html><title>A</title><body style='background:#a00'>A")
            _ = try folder.write("www/b.html", "<!doctype html><title>B</title><body style='background:#00a'>B")
            let config = try folder.write("displays.toml", """
                preset = "kiosk"
                app-dir = "www"
                [[displays]]
                monitor = 1
                start-url = "app://app/b.html"
                [[displays]]
                monitor = 0
                start-url = "app://app/a.html"
                """)
            let runtime = try folder.makeFolder("run")
            chmod(runtime, 0o700)
            let socket = "vitrine-displays-\(getpid())"
            let log = folder.url.appendingPathComponent("events.jsonl").path

            let compositor = Process()
            compositor.executableURL = URL(fileURLWithPath: weston)
            compositor.arguments = ["--backend=x11-backend.so", "--output-count=2", "--width=640", "--height=480",
                                    "--use-pixman", "--no-config", "--idle-time=0", "--socket=\(socket)"]
            compositor.environment = ProcessInfo.processInfo.environment.merging(["XDG_RUNTIME_DIR": runtime]) { $1 }
            compositor.standardOutput = FileHandle.nullDevice
            compositor.standardError = FileHandle.nullDevice
            try compositor.run()
            defer { stop(compositor) }
            wait(until: { FileManager.default.fileExists(atPath: runtime + "/" + socket) }, while: compositor)
            try #require(FileManager.default.fileExists(atPath: runtime + "/" + socket), "weston did not start on the test's display")

            let program = Process()
            program.executableURL = URL(fileURLWithPath: try BuiltProducts.path("vitrine"))
            program.arguments = ["--config", config, "--new-instance", "--events", log]
            program.environment = ProcessInfo.processInfo.environment.merging([
                "XDG_RUNTIME_DIR": runtime, "WAYLAND_DISPLAY": socket, "GDK_BACKEND": "wayland", "NO_AT_BRIDGE": "1",
            ]) { $1 }
            program.standardOutput = FileHandle.nullDevice
            program.standardError = FileHandle.nullDevice
            try program.run()
            defer { if program.isRunning { kill(program.processIdentifier, SIGKILL) } }
            func details(_ action: String) -> [String] {
                let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
                return text.split(separator: "\n").compactMap { line in
                    guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String],
                          object["action"] == action else { return nil }
                    return object["detail"]
                }
            }
            wait(until: { details("display-window-shown").count == 2 }, while: program)

            #expect(Set(details("display-window-shown")) == ["0 on monitor 1", "1 on monitor 0"])
            let opened = details("display-window-opened")
            #expect(opened.count == 2)
            #expect(opened.contains { $0.hasPrefix("0 1") && $0.hasSuffix(" app://app/b.html") }, "\(opened)")
            #expect(opened.contains { $0.hasPrefix("1 0") && $0.hasSuffix(" app://app/a.html") }, "\(opened)")

            kill(program.processIdentifier, SIGTERM)
            stop(program, after: 20)
            #expect(program.terminationReason == .exit && program.terminationStatus == 0)
        }

        /// Waits (polling a file or a socket, up to a minute) while `process` runs.
        private func wait(until condition: () -> Bool, while process: Process) {
            let deadline = Date().addingTimeInterval(60)
            while !condition() && process.isRunning && Date() < deadline { usleep(50_000) }
        }

        private func stop(_ process: Process, after seconds: TimeInterval = 10) {
            if process.isRunning { kill(process.processIdentifier, SIGTERM) }
            let deadline = Date().addingTimeInterval(seconds)
            while process.isRunning && Date() < deadline { usleep(50_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
    }
}
