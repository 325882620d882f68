import Foundation
import Testing
import VitrineTestSupport

extension WebKitTests {
    /// The `tray` capability with a real tray host: waybar's `tray` module (`WaybarTray`), the
    /// session's StatusNotifierWatcher and a host, on a private bus, drawing in a bar on a
    /// headless sway. The program's icon registers with it, waybar draws it, a click of the
    /// seat's pointer on it reaches the page as `tray:click`, and its menu's items, chosen as
    /// a host does (dbusmenu `Event`), reach the page as `tray:activated`.
    @Suite
    struct TrayHostTests {
        /// The menu's dbusmenu ids, depth first: open 1, separator 2, mute 3, off 4, More 5, quit 6.
        static let index = """
            <!doctype html><title>tray host</title><script>
            const items = (mute) => [{id: 'open', label: 'Open'}, '-', {id: 'mute', label: 'Mute', checked: mute},
              {id: 'off', label: 'Unavailable', enabled: false}, {label: 'More', items: [{id: 'quit', label: 'Quit'}]}];
            vitrine.tray.on('click', () => fetch('/click'));
            vitrine.tray.on('activated', (item) => {
              fetch('/activated?' + item.id + ('checked' in item ? '&checked=' + item.checked : ''));
              // The page sets the check item itself: unchecked again.
              if (item.id === 'quit') vitrine.tray.set({icon: 'icon.png', items: items(false)}).then(() => fetch('/reset'));
            });
            vitrine.tray.set({icon: 'icon.png', tooltip: 'Vitrine tray', items: items(false)})
              .then(() => fetch('/set'), (e) => fetch('/set?' + encodeURIComponent(e.message)));
            </script>
            """

        /// A private bus, waybar on sway, and the program showing `index` with its icon set.
        final class Fixture {
            let bus: PrivateSessionBus
            let folder: ConfigFolder
            let tray: WaybarTray
            let server: LoopbackHTTPServer
            let app: ProgramRun
            /// The icon's name on the bus.
            let name: String

            init(sourceLocation: SourceLocation = #_sourceLocation) throws {
                bus = try PrivateSessionBus()
                folder = try ConfigFolder()
                tray = try WaybarTray(in: folder, bus: bus, sourceLocation: sourceLocation)
                server = try LoopbackHTTPServer(pages: ["index.html": TrayHostTests.index])
                try TrayWindowTests.icon.write(to: server.directory.appendingPathComponent("icon.png"))
                let origin = "http://127.0.0.1:\(server.port)"
                let config = try folder.write("app.toml", """
                    app-id = "org.example.TrayHost"
                    start-url = "\(origin)/index.html"
                    app-dir = "\(server.directory.path)"
                    [capabilities]
                    "\(origin)" = ["tray"]
                    """)
                app = try ProgramRun(["--config", config, "--new-instance"], environment: bus.environment)
                name = "org.kde.StatusNotifierItem-\(app.process.processIdentifier)-1"
                try #require(server.waitForRequests(timeout: 30) { paths in paths.contains { $0.hasPrefix("/set") } },
                             "\(server.requestedPaths)\n\(app.standardError)", sourceLocation: sourceLocation)
                try #require(server.requestedPaths.contains("/set"), "\(server.requestedPaths)", sourceLocation: sourceLocation)
                try #require(tray.waitForRegistration(of: name), "waybar's watcher never announced \(name)", sourceLocation: sourceLocation)
            }

            /// `gdbus call` on the icon's menu, as a host calls it.
            func menu(_ method: String, _ arguments: [String]) throws -> (status: Int32, out: String) {
                let run = try runProcess("/usr/bin/gdbus", ["call", "--session", "--dest", name, "--object-path", "/MenuBar", "--method",
                                                            "com.canonical.dbusmenu." + method] + arguments, timeout: 20, environment: bus.environment)
                return (run.status, run.stdout + run.stderr)
            }

            /// The page's reports of the user's choices and clicks, in order.
            var choices: [String] { server.requestedPaths.filter { $0.hasPrefix("/click") || $0.hasPrefix("/activated") } }

            func stop() {
                app.kill()
                server.stop()
                tray.stop()
                bus.stop()
            }
        }

        @Test func waybarShowsTheIconAndItsClickAndMenuReachThePage() throws {
            let run = try Fixture()
            defer { run.stop() }
            #expect(run.tray.watcherOwner == run.tray.pid, "waybar owns the StatusNotifierWatcher")
            #expect(run.tray.registeredItems().contains("'\(run.name)/StatusNotifierItem'"), "\(run.tray.registeredItems())")

            // waybar read the item: its icon (the file's red pixels) is at the bar's right end.
            let icon = try #require(run.tray.waitForIcon(), "waybar drew no icon in its bar")
            #expect(icon.maxX >= 1200 && icon.maxY < WaybarTray.barHeight, "\(icon)")

            // The user clicks the icon in the bar: waybar calls Activate, the page hears it.
            try run.tray.click(x: (icon.minX + icon.maxX) / 2, y: (icon.minY + icon.maxY) / 2)
            #expect(run.server.waitForRequests(timeout: 20) { $0.contains("/click") }, "\(run.server.requestedPaths)")

            // The user picks Open in the icon's menu, as the host sends it.
            #expect(try run.menu("Event", ["1", "clicked", "<''>", "0"]).status == 0)
            #expect(run.server.waitForRequests(timeout: 20) { $0.contains("/activated?open") }, "\(run.server.requestedPaths)")
            #expect(run.choices == ["/click", "/activated?open"])
            #expect(run.app.end())
        }
    }
}
