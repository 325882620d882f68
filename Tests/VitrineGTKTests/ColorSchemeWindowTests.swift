import Foundation
import Testing
import VitrineTestSupport

extension WebKitTests {
    /// `[window] color-scheme`: the desktop portal's `color-scheme` (a stand-in portal on a
    /// private bus: Debian's needs a desktop's backend) reaches a real page's
    /// `prefers-color-scheme` at start and whenever the stand-in changes it; garbage from the
    /// portal is ignored with an events line; `color-scheme = "light"` never asks it, and
    /// light pages stay light under a dark-named GTK theme.
    @Suite
    struct ColorSchemeWindowTests {
        static let page = """
            <!doctype html><title>scheme</title><script>
            const dark = matchMedia('(prefers-color-scheme: dark)');
            let reports = 0;
            const report = () => fetch('/scheme?n=' + (++reports) + '&dark=' + dark.matches);
            dark.addEventListener('change', report);
            report();
            </script>
            """

        @Test func pagesFollowTheDesktopsSchemeUnlessTheConfigurationFixesIt() throws {
            let bus = try PrivateSessionBus()
            defer { bus.stop() }
            let portal = try StandInService("fake_settings_portal.py", ["1"], bus: bus)
            defer { kill(portal.process.processIdentifier, SIGKILL) }
            let server = try LoopbackHTTPServer(pages: ["index.html": Self.page])
            defer { server.stop() }
            let url = server.url("index.html").absoluteString
            let folder = try ConfigFolder()
            let system = try folder.write("system.toml", "start-url = \"\(url)\"\n")
            let app = try ProgramRun(["--config", system, "--events", folder.path + "/system.jsonl"], environment: bus.environment)
            defer { app.end() }

            /// The page's reports so far: whether it saw dark, in order.
            func reports() -> [Bool] {
                server.requestedPaths.filter { $0.hasPrefix("/scheme?") }.map { $0.hasSuffix("dark=true") }
            }
            func waitForReport(_ dark: Bool, after count: Int) -> Bool {
                server.waitForRequests { _ in reports().count > count && reports().last == dark }
            }
            func event(_ run: ProgramRun, _ action: String, _ detail: String) -> Bool {
                run.wait { run.events.contains { $0["action"] as? String == action && ($0["detail"] as? String)?.contains(detail) == true } }
            }
            func set(_ value: String) throws {
                let call = try runProcess("/usr/bin/gdbus", [
                    "call", "--session", "--dest", "org.freedesktop.portal.Desktop", "--object-path", "/org/vitrine/tests/SettingsControl",
                    "--method", "org.vitrine.tests.SettingsControl.Set", value], timeout: 20, environment: bus.environment)
                #expect(call.status == 0, "\(call.stderr)")
            }

            // Read at start: the desktop prefers dark.
            #expect(waitForReport(true, after: 0), "\(reports())")
            #expect(event(app, "color-scheme", "dark (desktop)"))
            // Followed live: the user switches to light.
            let beforeLight = reports().count
            try set("<uint32 2>")
            #expect(waitForReport(false, after: beforeLight), "\(reports())")
            // Garbage is ignored, each with an events line; the page keeps its scheme.
            try set("<'dark'>")
            #expect(event(app, "color-scheme-ignored", #"of type "s""#))
            try set("<uint32 7>")
            #expect(event(app, "color-scheme-ignored", "is 7, not 0, 1 or 2"))
            let beforeDark = reports().count
            try set("<uint32 1>")
            #expect(waitForReport(true, after: beforeDark), "\(reports())")
            #expect(reports().count == beforeDark + 1, "the garbage changed nothing the page saw: \(reports())")
            app.end()

            // Fixed light: the desktop's dark is not even asked for, and its dark-named GTK
            // theme (which WebKitGTK would call dark) gives way to its light variant.
            let light = try folder.write("light.toml", "start-url = \"\(url)\"\n[window]\ncolor-scheme = \"light\"\n")
            let gtkConfig = try folder.write("xdg/gtk-3.0/settings.ini", "[Settings]\ngtk-theme-name=Adwaita-dark\n")
            var environment = bus.environment
            environment["XDG_CONFIG_HOME"] = URL(fileURLWithPath: gtkConfig).deletingLastPathComponent().deletingLastPathComponent().path // …/xdg
            let lightApp = try ProgramRun(["--config", light, "--events", folder.path + "/light.jsonl"], environment: environment)
            defer { lightApp.end() }
            let beforeLightApp = reports().count
            #expect(event(lightApp, "color-scheme", "light (configured; theme Adwaita)"))
            #expect(waitForReport(false, after: beforeLightApp), "\(reports())")
            lightApp.end()
            let calls = portal.stop().filter { $0.hasPrefix("ReadOne ") || $0.hasPrefix("Read ") }
            #expect(calls == ["ReadOne org.freedesktop.appearance color-scheme"], "only the first app read the setting: \(calls)")
        }
    }
}
