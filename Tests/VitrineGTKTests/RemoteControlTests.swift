import Foundation
import Testing
import Vitrine
import VitrineTestSupport

/// A session bus of the test's own (dbus-daemon in a subprocess), so no other program's
/// bus or running Vitrine is touched.
final class PrivateSessionBus {
    let address: String
    private let process = Process()

    init() throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        process.arguments = ["--session", "--nofork", "--print-address=1"]
        let output = Pipe()
        process.standardOutput = output
        // Services the bus starts inherit its standard error: keep them off the test
        // runner's, or the runner waits for them to close it.
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let buffer = firstLine(of: output)
        address = buffer.trimmingCharacters(in: .whitespacesAndNewlines)
        guard address.hasPrefix("unix:") else {
            kill(process.processIdentifier, SIGKILL)
            throw LoopbackHTTPServer.ServerError(output: "dbus-daemon: \(buffer)")
        }
    }

    var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = address
        return environment
    }

    /// `environment` with the accessibility bridge on, for a program and its AT-SPI user that
    /// must meet on this bus's accessibility bus.
    var accessibleEnvironment: [String: String] {
        get throws {
            try AccessibilityBus.forgetDisplayProperty()
            var environment = environment
            environment["NO_AT_BRIDGE"] = nil
            return environment
        }
    }

    /// Ends the bus and every service it started (`DBUS_STARTER_ADDRESS` is its address):
    /// the accessibility bus's own dbus-daemon outlives at-spi-bus-launcher otherwise.
    func stop() {
        kill(process.processIdentifier, SIGKILL)
        for pid in Self.servicesStarted(by: address) { kill(pid, SIGKILL) }
        try? AccessibilityBus.forgetDisplayProperty()
    }

    private static func servicesStarted(by address: String) -> [pid_t] {
        let marker = "DBUS_STARTER_ADDRESS=\(address)"
        return (FileSystem.entries(of: "/proc") ?? []).compactMap(pid_t.init).filter { pid in
            FileSystem.contents(of: "/proc/\(pid)/environ")?.split(separator: "\0").contains { $0 == marker } ?? false
        }
    }
}

extension WebKitTests {
    /// Vitrine as a single instance on a real (private) session bus, driven by `vitrine ctl`,
    /// `gapplication`, `gdbus` and a second `vitrine URL`.
    @Suite
    struct RemoteControlTests {
        @Test func theRunningInstanceObeysRemoteActionsThroughItsChain() throws {
            let bus = try PrivateSessionBus()
            defer { bus.stop() }
            let environment = bus.environment

            let server = try LoopbackHTTPServer(pages: [
                "start.html": "<!doctype html><title>start</title>", "second.html": "<!doctype html><title>second</title>",
                "third.html": "<!doctype html><title>third</title>"])
            defer { server.stop() }
            let events = FileManager.default.temporaryDirectory.appendingPathComponent("vitrine-remote-\(UUID().uuidString).jsonl")
            defer { try? FileManager.default.removeItem(at: events) }
            let vitrine = try BuiltProducts.path("vitrine")
            // A page's app, with no id configured: the one derived from its origin.
            let appID = ApplicationID.derived(from: try #require(Origin(server.url("start.html"))))
            let objectPath = "/" + appID.replacing(".", with: "/").replacing("-", with: "_")

            // The primary instance: a kiosk, so the allow-list is in force.
            let primary = try ProgramRun(["--preset", "kiosk", "--no-fullscreen", "--events", events.path, server.url("start.html").absoluteString],
                                         environment: environment)
            defer { primary.kill() }

            func waitFor(_ what: String, _ condition: ([[String: Any]]) -> Bool) -> Bool {
                if primary.wait(timeout: 10, until: { condition(primary.events) }) { return true }
                Issue.record("timed out waiting for \(what)")
                return false
            }
            func loaded(_ url: URL) -> ([[String: Any]]) -> Bool {
                { $0.contains { $0["event"] as? String == "finished" && $0["url"] as? String == url.absoluteString } }
            }
            func ctl(_ arguments: String...) throws -> (status: Int32, stdout: String, stderr: String) {
                try runProcess(vitrine, ["ctl", "--app-id", appID] + arguments, timeout: 20, environment: environment)
            }
            #expect(waitFor("the start page", loaded(server.url("start.html"))))

            // navigate: through the chain — allowed…
            #expect(try ctl("navigate", server.url("second.html").absoluteString).status == 0)
            #expect(waitFor("navigate", loaded(server.url("second.html"))))
            // …and refused by the kiosk's allow-list.
            let outside = server.url("second.html", host: "localhost").absoluteString
            #expect(try ctl("navigate", outside).status == 0)
            #expect(waitFor("the blocked navigation") {
                $0.contains { $0["url"] as? String == outside && $0["policy"] as? String == "cancel" && $0["handler"] as? String == "origin-allowlist" }
            })

            // reload, with the desktop's own tool.
            let reload = try runProcess("/usr/bin/gapplication", ["action", appID, "reload"], timeout: 20, environment: environment)
            #expect(reload.status == 0, "\(reload.stderr)")
            #expect(waitFor("reload") { $0.contains { $0["navigationType"] as? String == "reload" } })

            // home, with gdbus.
            let home = try runProcess("/usr/bin/gdbus", [
                "call", "--session", "--dest", appID, "--object-path", objectPath,
                "--method", "org.gtk.Actions.Activate", "home", "[]", "{}"], timeout: 20, environment: environment)
            #expect(home.status == 0, "\(home.stderr)")
            #expect(waitFor("home") { entries in
                entries.filter { $0["event"] as? String == "finished" && $0["url"] as? String == server.url("start.html").absoluteString }.count >= 2
            })

            // screenshot to a file.
            let png = FileManager.default.temporaryDirectory.appendingPathComponent("vitrine-remote-\(UUID().uuidString).png").path
            defer { try? FileManager.default.removeItem(atPath: png) }
            let shot = try ctl("screenshot", png)
            #expect(shot.status == 0, "\(shot.stderr)")
            #expect(((try? FileManager.default.attributesOfItem(atPath: png)[.size] as? Int) ?? 0) > 1000)

            // display off and on: the screen blanked and back, each an events-log line.
            func native(_ action: String) -> ([[String: Any]]) -> Bool {
                { $0.contains { $0["action"] as? String == action && $0["detail"] as? String == "command" } }
            }
            #expect(try ctl("display", "off").status == 0)
            #expect(waitFor("display off", native("display-off")))
            #expect(try ctl("display", "on").status == 0)
            #expect(waitFor("display on", native("display-on")))
            #expect(try ctl("display", "dim").status != 0, "display takes on or off")

            // A second `vitrine URL` of the same app (the same origin) hands the URL over and exits.
            let second = try runProcess(vitrine, [server.url("third.html").absoluteString], timeout: 20, environment: environment)
            #expect(second.status == 0)
            #expect(second.stderr.contains("handed over to the running instance"))
            #expect(waitFor("the handed-over URL", loaded(server.url("third.html"))))
            #expect(primary.isRunning, "one window, still running")

            // quit: the program ends as on SIGTERM, with its log written.
            #expect(try ctl("quit").status == 0)
            #expect(primary.waitForExit(timeout: 10), "quit")
            primary.end()
            #expect(primary.process.terminationStatus == 0)
        }

        @Test func ctlWithoutARunningInstanceFailsClearly() throws {
            let bus = try PrivateSessionBus()
            defer { bus.stop() }
            let environment = bus.environment
            let run = try runProcess(try BuiltProducts.path("vitrine"), ["ctl", "reload"], timeout: 20, environment: environment)
            #expect(run.status != 0)
            #expect(run.stderr.contains("no Vitrine instance of org.vitrine.Vitrine is running"), "\(run.stderr)")
            let bad = try runProcess(try BuiltProducts.path("vitrine"), ["ctl", "navigate", "not a url"], timeout: 20, environment: environment)
            #expect(bad.status != 0)
            // The running instance's own check and message (RemoteCommand.parse), before the bus.
            #expect(bad.stderr.contains("navigate takes an absolute URL such as https://example.org/, got 'not a url'"), "\(bad.stderr)")
            let extra = try runProcess(try BuiltProducts.path("vitrine"), ["ctl", "reload", "now"], timeout: 20, environment: environment)
            #expect(extra.status != 0 && extra.stderr.contains("reload takes no argument, got 'now'"), "\(extra.stderr)")
            let fleetOnly = try runProcess(try BuiltProducts.path("vitrine"), ["ctl", "config", "a = 1"], timeout: 20, environment: environment)
            #expect(fleetOnly.status != 0 && !fleetOnly.stderr.contains("no Vitrine instance"), "config is MQTT's only: \(fleetOnly.stderr)")
        }
    }
}
