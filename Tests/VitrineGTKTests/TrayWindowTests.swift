import Foundation
import Testing
import VitrineTestSupport

extension WebKitTests {
    /// The `tray` capability on a real (private) session bus: the program's
    /// StatusNotifierItem registers with waybar's StatusNotifierWatcher; its properties and
    /// its dbusmenu are read, and clicked, with `gdbus` as a tray host would; the choices reach
    /// the page that set the icon. Frames that may not set it (sandboxed, foreign, a
    /// same-origin frame), icons outside the app's folder, garbage and floods are refused;
    /// the icon goes with the document that set it.
    @Suite
    struct TrayWindowTests {
        /// A 4x3 red PNG.
        static let icon = Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAQAAAADCAYAAAC09K7GAAAAEklEQVR4nGP4z8DwHxkzEBQAAGHtF+mRbBMEAAAAAElFTkSuQmCC")!

        /// Each refused call reports its error as `/refused-NAME?message`.
        static let index = """
            <!doctype html><title>tray</title>
            <iframe sandbox="allow-scripts" srcdoc="<script>vitrine.tray.set({icon: 'icon.png'}).then(
              () => fetch('/refused-sandboxed?set'), (e) => fetch('/refused-sandboxed?' + encodeURIComponent(e.message)))</script>"></iframe>
            <iframe src="/inner.html"></iframe>
            <iframe src="FOREIGN"></iframe>
            <script>
            const attempt = (name, tray) => vitrine.tray.set(tray).then(() => fetch('/refused-' + name + '?set'),
              (e) => fetch('/refused-' + name + '?' + encodeURIComponent(e.message)));
            vitrine.tray.on('activated', (item) => {
              // Away only once the report is in: a navigation cancels a fetch still under way.
              const reported = fetch('/activated?' + item.id);
              if (item.id === 'quit') reported.finally(() => { location.href = '/second.html'; });
            });
            vitrine.tray.on('click', () => fetch('/click'));
            (async () => {
              await attempt('escape', {icon: '../icon.png'});
              await attempt('absolute', {icon: '/etc/hostname.png'});
              await attempt('symlink', {icon: 'escape.png'});
              await attempt('not-an-image', {icon: 'text.png'});
              await attempt('garbage', {icon: 'icon.png', items: [{id: 'a b', label: 'x'}]});
              await attempt('flood', {icon: 'icon.png', items: Array.from({length: 201}, (_, i) => ({id: 'i' + i, label: 'I'}))});
              await attempt('tooltip', {icon: 'icon.png', tooltip: 'x'.repeat(201)});
              await vitrine.tray.set({icon: 'icon.png', tooltip: 'Vitrine tray',
                items: [{id: 'open', label: 'Open'}, '-', {label: 'More', items: [{id: 'quit', label: 'Quit'}]}]});
              fetch('/set');
            })().catch((e) => fetch('/set?' + encodeURIComponent(e.message)));
            </script>
            """

        static func framePage(_ report: String) -> String {
            """
            <!doctype html><script>
            vitrine.tray.set({icon: 'mail-unread'}).then(() => fetch('/refused-\(report)?set'),
              (e) => fetch('/refused-\(report)?' + encodeURIComponent(e.message)));
            </script>
            """
        }

        private static func reports(_ server: LoopbackHTTPServer, _ name: String) -> [String] {
            server.requestedPaths.filter { $0.hasPrefix("/\(name)?") }
                .map { String($0.dropFirst(name.count + 2)).removingPercentEncoding ?? $0 }
        }

        @Test func theTrayIsReadAndClickedOverTheBusAndGoesWithItsDocument() throws {
            let bus = try PrivateSessionBus()
            defer { bus.stop() }
            let hostFolder = try ConfigFolder()
            let host = try WaybarTray(in: hostFolder, bus: bus)
            defer { host.stop() }
            let outside = FileManager.default.temporaryDirectory.appendingPathComponent("vitrine-tray-outside-\(UUID().uuidString).png")
            try Self.icon.write(to: outside)
            defer { try? FileManager.default.removeItem(at: outside) }
            let server = try LoopbackHTTPServer(pages: [
                "inner.html": Self.framePage("inner"), "foreign.html": Self.framePage("foreign"),
                "second.html": """
                    <!doctype html><title>second</title><script>
                    vitrine.tray.on('activated', (item) => fetch('/second-heard?' + item.id));
                    vitrine.tray.on('click', () => fetch('/second-heard-click'));
                    fetch('/second-loaded');
                    </script>
                    """,
                "text.png": "not an image at all",
            ])
            defer { server.stop() }
            try Self.index.replacingOccurrences(of: "FOREIGN", with: server.url("foreign.html", host: "localhost").absoluteString)
                .write(to: server.directory.appendingPathComponent("index.html"), atomically: true, encoding: .utf8)
            try Self.icon.write(to: server.directory.appendingPathComponent("icon.png"))
            try FileManager.default.createSymbolicLink(atPath: server.directory.appendingPathComponent("escape.png").path,
                                                       withDestinationPath: outside.path)
            let origin = "http://127.0.0.1:\(server.port)"
            let folder = try ConfigFolder()
            let config = try folder.write("app.toml", """
                app-id = "org.example.TrayTest"
                start-url = "\(origin)/index.html"
                app-dir = "\(server.directory.path)"
                allowed-origins = ["\(origin)", "http://localhost:\(server.port)"]
                [capabilities]
                "\(origin)" = ["tray"]
                """)
            let app = try ProgramRun(["--config", config, "--new-instance"], environment: bus.environment)
            defer { app.kill() }

            #expect(server.waitForRequests(timeout: 30) { paths in
                paths.contains { $0.hasPrefix("/set") } && ["sandboxed", "inner", "foreign"].allSatisfy { name in
                    paths.contains { $0.hasPrefix("/refused-\(name)?") }
                }
            }, "\(server.requestedPaths)\n\(app.standardError)")
            #expect(server.requestedPaths.contains("/set"), "\(server.requestedPaths)")
            let refused = { (name: String) in Self.reports(server, "refused-\(name)") }
            #expect(refused("sandboxed") == [#"capability "tray" is not granted to an opaque origin (a sandboxed frame) — add it to [capabilities] in the config"#])
            #expect(refused("inner") == ["tray: only the window's top document may set the tray icon, not a frame inside it"])
            #expect(refused("foreign") == [#"capability "tray" is not granted to http://localhost:\#(server.port) — add it to [capabilities] in the config"#])
            #expect(refused("escape") == [#"tray: icon "../icon.png" must be a path inside the app's folder, relative and without "..""#])
            #expect(refused("absolute") == [#"tray: icon "/etc/hostname.png" must be a path inside the app's folder, relative and without "..""#])
            #expect(refused("symlink") == [#"tray: icon "escape.png" leads outside the app's folder"#])
            #expect(refused("not-an-image").first?.hasPrefix(#"tray: icon "text.png" is text/plain, not a PNG or SVG image"#) == true,
                    "\(refused("not-an-image"))")
            #expect(refused("garbage") == [#"menu: an id is 1 to 64 of A-Z a-z 0-9 - _ . :, not "a b""#])
            #expect(refused("flood") == ["menu: at most 200 items"])
            #expect(refused("tooltip") == ["tray: a tooltip is at most 200 characters without control characters"])

            // The item registered with the desktop's watcher (waybar's); read as a tray host reads
            // it: its properties, then its menu.
            let name = "org.kde.StatusNotifierItem-\(app.process.processIdentifier)-1"
            #expect(host.waitForRegistration(of: name), "the item never registered with the watcher")
            func call(_ path: String, _ method: String, _ arguments: [String]) throws -> (status: Int32, out: String) {
                let run = try runProcess("/usr/bin/gdbus", ["call", "--session", "--dest", name, "--object-path", path, "--method", method] + arguments,
                                         timeout: 20, environment: bus.environment)
                return (run.status, run.stdout + run.stderr)
            }
            func property(_ property: String) throws -> String {
                try call("/StatusNotifierItem", "org.freedesktop.DBus.Properties.Get", ["org.kde.StatusNotifierItem", property]).out
            }
            let tooltip = try property("ToolTip"), pixmap = try property("IconPixmap")
            #expect(tooltip.contains("'Vitrine tray'"), "\(tooltip)")
            #expect(pixmap.hasPrefix("(<[(4, 3, [byte 0xff, 0xff, 0x00, 0x00,"), "\(pixmap)")
            #expect(try property("Menu") == "(<objectpath '/MenuBar'>,)\n")
            let layout = try call("/MenuBar", "com.canonical.dbusmenu.GetLayout", ["0", "int32 -1", "[]"]).out
            #expect(layout.contains("'Open'") && layout.contains("'More'") && layout.contains("'Quit'") && layout.contains("'separator'"), "\(layout)")

            // The user clicks the icon, then Open (item 1), then Quit (item 4, in More), which takes the page away.
            #expect(try call("/StatusNotifierItem", "org.kde.StatusNotifierItem.Activate", ["0", "0"]).status == 0)
            #expect(server.waitForRequests(timeout: 20) { $0.contains("/click") })
            #expect(try call("/MenuBar", "com.canonical.dbusmenu.Event", ["1", "clicked", "<''>", "0"]).status == 0)
            #expect(server.waitForRequests(timeout: 20) { $0.contains("/activated?open") })
            #expect(try call("/MenuBar", "com.canonical.dbusmenu.Event", ["4", "clicked", "<''>", "0"]).status == 0)
            #expect(server.waitForRequests(timeout: 20) { $0.contains("/second-loaded") })
            #expect(server.requestedPaths.filter { $0.hasPrefix("/activated") } == ["/activated?open", "/activated?quit"])

            // The document that set the icon went: so did the icon.
            // (It went at the commit, before the second page's script ran.)
            let gone = try call("/StatusNotifierItem", "org.freedesktop.DBus.Properties.Get", ["org.kde.StatusNotifierItem", "ToolTip"])
            #expect(gone.status != 0 && !gone.out.contains("Vitrine tray"), "\(gone.out)")
            #expect(try call("/MenuBar", "com.canonical.dbusmenu.Event", ["1", "clicked", "<''>", "0"]).status != 0)
            _ = try call("/StatusNotifierItem", "org.kde.StatusNotifierItem.Activate", ["0", "0"])
            #expect(!server.requestedPaths.contains { $0.hasPrefix("/second-heard") }, "the next document heard the first one's tray")
            #expect(app.end())
        }

        /// `[window] close-to-tray` under a real window manager (openbox): its close request hides
        /// the window while the page's icon shows, a click on the icon brings it back, and once the
        /// page cleared its icon the same request ends the program.
        @Test func closeToTrayHidesTheWindowUntilTheIconIsClicked() throws {
            let bus = try PrivateSessionBus()
            defer { bus.stop() }
            let server = try LoopbackHTTPServer(pages: ["index.html": """
                <!doctype html><title>tray close</title><script>
                vitrine.tray.on('activated', (item) => vitrine.tray.clear().then(() => fetch('/cleared')));
                vitrine.tray.set({icon: 'mail-unread', items: [{id: 'forget', label: 'Forget'}]}).then(() => fetch('/set'));
                </script>
                """])
            defer { server.stop() }
            let windowManager = try Openbox()
            defer { windowManager.stop() }

            let origin = "http://127.0.0.1:\(server.port)"
            let folder = try ConfigFolder()
            let config = try folder.write("app.toml", """
                app-id = "org.example.TrayClose"
                start-url = "\(origin)/index.html"
                [window]
                close-to-tray = true
                [capabilities]
                "\(origin)" = ["tray"]
                """)
            let program = try ProgramRun(["--config", config, "--new-instance", "--events", folder.path + "/events.jsonl"],
                                         environment: bus.environment)
            defer { program.kill() }
            try #require(server.waitForRequests(timeout: 30) { $0.contains("/set") }, "\(server.requestedPaths)\n\(program.standardError)")

            func managedWindow() -> String? { windowManager.client(of: program.process.processIdentifier) }
            let clients = try windowManager.watchClients()
            defer { clients.kill() }
            try #require(clients.wait { managedWindow() != nil }, "openbox manages the window")
            let trayEvents = { program.events.filter { $0["action"] as? String == "tray" }.compactMap { $0["detail"] as? String } }

            #expect(try runProcess("/usr/bin/wmctrl", ["-i", "-c", try #require(managedWindow())]).status == 0)
            #expect(program.wait { trayEvents().contains("window hidden to the tray") }, "\(program.events)")
            #expect(clients.wait { managedWindow() == nil }, "the window is unmapped")
            #expect(program.isRunning)

            let name = "org.kde.StatusNotifierItem-\(program.process.processIdentifier)-1"
            func call(_ path: String, _ method: String, _ arguments: [String]) throws -> Int32 {
                try runProcess("/usr/bin/gdbus", ["call", "--session", "--dest", name, "--object-path", path, "--method", method] + arguments,
                               timeout: 20, environment: bus.environment).status
            }
            #expect(try call("/StatusNotifierItem", "org.kde.StatusNotifierItem.Activate", ["0", "0"]) == 0)
            #expect(program.wait { trayEvents().contains("window shown from the tray") }, "\(program.events)")
            #expect(clients.wait { managedWindow() != nil }, "the window is back")

            // The page lets its icon go: now the window manager's close request ends the program.
            #expect(try call("/MenuBar", "com.canonical.dbusmenu.Event", ["1", "clicked", "<''>", "0"]) == 0)
            #expect(server.waitForRequests(timeout: 20) { $0.contains("/cleared") })
            #expect(try runProcess("/usr/bin/wmctrl", ["-i", "-c", try #require(managedWindow())]).status == 0)
            #expect(program.waitForExit(), "without an icon, closing the window ends the program")
            #expect(trayEvents().filter { $0 == "window hidden to the tray" }.count == 1, "\(trayEvents())")
        }
    }
}
