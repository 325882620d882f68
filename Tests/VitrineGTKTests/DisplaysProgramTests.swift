import Foundation
import Testing
import VitrineTestSupport

extension WebKitTests {
    /// `[[displays]]` on real monitors that come and go: the program under sway's headless
    /// backend (wlroots), through GDK's Wayland backend. Under Xvfb, GDK 3 sees one monitor
    /// whatever the Xinerama or RandR setup; sway makes outputs on demand (`create_output`),
    /// which GDK reports as `monitor-added`.
    @Suite
    struct DisplaysProgramTests {
        @Test func aMonitorThatAppearsGetsItsWindowWithItsOwnPage() throws {
            let sway = "/usr/bin/sway", swaymsg = "/usr/bin/swaymsg"
            try #require(FileManager.default.isExecutableFile(atPath: sway), "sway is not installed (make deps installs it)")
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
            let swayConfig = try folder.write("sway.conf", "")
            let runtime = try folder.makeFolder("run")
            let compositor = try startSway(sway, config: swayConfig, runtime: runtime)
            // Killed outright: a compositor's clean exit proves nothing here (and sway takes
            // seconds over it).
            defer { stop(compositor, signal: SIGKILL) }
            let entries = { (try? FileManager.default.contentsOfDirectory(atPath: runtime)) ?? [] }
            wait(until: { entries().contains { $0.hasPrefix("sway-ipc.") } }, while: compositor)
            let socket = try #require(entries().first { $0.hasPrefix("wayland-") && !$0.hasSuffix(".lock") }, "sway did not start: \(entries())")
            let ipc = runtime + "/" + (try #require(entries().first { $0.hasPrefix("sway-ipc.") }))

            let log = folder.url.appendingPathComponent("events.jsonl").path
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

            // One output: the display that names monitor 0 gets its window; monitor 1's waits.
            wait(until: { !details("display-window-shown").isEmpty }, while: program)
            #expect(details("display-window-shown") == ["1 on monitor 0"])
            #expect(details("display-window-opened").count == 1)
            #expect(details("display-window-opened").first?.hasSuffix(" app://app/a.html") == true)

            // A second output appears: its window opens there, with its own page, no restart.
            let created = try runProcess(swaymsg, ["-s", ipc, "create_output"], timeout: 20)
            try #require(created.status == 0, "swaymsg create_output: \(created.stdout) \(created.stderr)")
            wait(until: { details("display-window-shown").count == 2 }, while: program)
            #expect(details("display-window-shown") == ["1 on monitor 0", "0 on monitor 1"])
            let opened = details("display-window-opened")
            #expect(opened.count == 2 && opened.last?.hasPrefix("0 1") == true && opened.last?.hasSuffix(" app://app/b.html") == true,
                    "\(opened)")
            #expect(details("display-window-closed").isEmpty)

            stop(program)
            #expect(program.terminationReason == .exit && program.terminationStatus == 0)
        }

        /// sway with one headless output and no input devices. It refuses to run as root
        /// (it could not drop root for good): as root, it runs as `nobody`, owning its
        /// runtime folder; root still reaches its sockets.
        private func startSway(_ sway: String, config: String, runtime: String) throws -> Process {
            let asRoot = getuid() == 0
            if asRoot { chown(runtime, 65534, 65534) }
            chmod(runtime, 0o700)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: asRoot ? "/usr/bin/setpriv" : sway)
            process.arguments = (asRoot ? ["--reuid=65534", "--regid=65534", "--clear-groups", sway] : []) + ["-c", config]
            process.environment = ProcessInfo.processInfo.environment.merging([
                "XDG_RUNTIME_DIR": runtime, "WLR_BACKENDS": "headless", "WLR_HEADLESS_OUTPUTS": "1",
                "WLR_LIBINPUT_NO_DEVICES": "1", "WLR_RENDERER": "pixman",
            ]) { $1 }
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            return process
        }

        /// Waits (polling the events file or a folder, up to a minute) while `process` runs.
        private func wait(until condition: () -> Bool, while process: Process) {
            let deadline = Date().addingTimeInterval(60)
            while !condition() && process.isRunning && Date() < deadline { usleep(50_000) }
        }

        /// Sends `signal` and waits up to 20 s for the end (then SIGKILL).
        private func stop(_ process: Process, signal: Int32 = SIGTERM) {
            if process.isRunning { kill(process.processIdentifier, signal) }
            let deadline = Date().addingTimeInterval(20)
            while process.isRunning && Date() < deadline { usleep(50_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
    }
}
