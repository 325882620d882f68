import Foundation
import Testing
import VitrineTestSupport

extension WebKitTests {
    /// The `tray` capability with a real tray host: waybar's `tray` module (`WaybarTray`), the
    /// session's StatusNotifierWatcher and a host, on a private bus, drawing in a bar on a
    /// headless sway. The program's icon registers with it, waybar draws it, a click of the
    /// seat's pointer on it reaches the page as `tray:click`, a right click pops its menu up and
    /// a click there reaches the page as `tray:activated`; chosen as any host may (dbusmenu
    /// `Event`), a check item flips.
    /// Events no user could make (unknown ids, separators, submenus, disabled items, floods)
    /// reach nobody.
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
            let icon = try #require(run.tray.waitFor(run.tray.iconBox), "waybar drew no icon in its bar")
            #expect(icon.maxX >= 1200 && icon.maxY < WaybarTray.barHeight, "\(icon)")

            // The user clicks the icon in the bar: waybar calls Activate, the page hears it.
            try run.tray.click(x: (icon.minX + icon.maxX) / 2, y: (icon.minY + icon.maxY) / 2)
            #expect(run.server.waitForRequests(timeout: 20) { $0.contains("/click") }, "\(run.server.requestedPaths)")

            // A right click: waybar reads the menu (GetLayout) and pops it up; the user clicks its
            // first item, Open, and waybar sends the click (EventGroup).
            #expect(run.tray.menuBox() == nil)
            let menu = try #require(try run.tray.openMenu(on: icon), "waybar showed no menu")
            try run.tray.click(x: menu.minX + 20, y: menu.minY + 9)
            #expect(run.server.waitForRequests(timeout: 20) { $0.contains("/activated?open") }, "\(run.server.requestedPaths)")
            #expect(run.choices == ["/click", "/activated?open"])
            #expect(run.app.end())
        }

        /// A click on a check item in waybar's menu, then others as any host sends them, flip
        /// it: the page hears the new state, the hosts hear ItemsPropertiesUpdated and read the
        /// new toggle-state; the page sets it back.
        @Test func aCheckItemFlipsWhenAHostClicksIt() throws {
            let run = try Fixture()
            defer { run.stop() }
            let mute = ["[3]", "['toggle-state']"]
            #expect(try run.menu("GetGroupProperties", mute).out.contains("'toggle-state': <0>"))

            // In waybar's menu, Mute is the second row, after the separator.
            let icon = try #require(run.tray.waitFor(run.tray.iconBox), "waybar drew no icon in its bar")
            let menu = try #require(try run.tray.openMenu(on: icon), "waybar showed no menu")
            try run.tray.click(x: menu.minX + 20, y: menu.minY + 29)
            #expect(run.server.waitForRequests(timeout: 20) { $0.contains("/activated?mute&checked=true") }, "\(run.server.requestedPaths)")
            #expect(run.tray.waitForSignal("member=ItemsPropertiesUpdated"), "no ItemsPropertiesUpdated for the hosts")
            #expect(try run.menu("GetGroupProperties", mute).out.contains("'toggle-state': <1>"))
            #expect(try run.menu("GetLayout", ["0", "int32 -1", "[]"]).out.contains("'toggle-state': <1>"))

            #expect(try run.menu("Event", ["3", "clicked", "<''>", "0"]).status == 0)
            #expect(run.server.waitForRequests(timeout: 20) { $0.contains("/activated?mute&checked=false") }, "\(run.server.requestedPaths)")
            #expect(try run.menu("GetGroupProperties", mute).out.contains("'toggle-state': <0>"))

            // Flipped on by the host, then set off by the page (on Quit): the hosts hear the new layout.
            #expect(try run.menu("Event", ["3", "clicked", "<''>", "0"]).status == 0)
            #expect(try run.menu("Event", ["6", "clicked", "<''>", "0"]).status == 0)
            #expect(run.server.waitForRequests(timeout: 20) { $0.contains("/reset") }, "\(run.server.requestedPaths)")
            #expect(run.tray.waitForSignal("member=LayoutUpdated"), "no LayoutUpdated for the hosts")
            #expect(try run.menu("GetGroupProperties", mute).out.contains("'toggle-state': <0>"))
            #expect(run.choices == ["/activated?mute&checked=true", "/activated?mute&checked=false",
                                    "/activated?mute&checked=true", "/activated?quit"])
        }

        /// Any peer of the bus may call the menu: events for ids that are no command (unknown,
        /// the separator, the submenu), for the disabled item, of kinds other than a click,
        /// and a flood of them, change nothing and reach nobody; the program stays up and the
        /// next real click still works.
        @Test func eventsNoUserCouldMakeReachNobody() throws {
            let run = try Fixture()
            defer { run.stop() }
            let before = try run.menu("GetLayout", ["0", "int32 -1", "[]"]).out
            #expect(try run.menu("Event", ["999", "clicked", "<''>", "0"]).status != 0, "an unknown id is an error")
            #expect(try run.menu("Event", ["-1", "clicked", "<''>", "0"]).status != 0)
            for id in ["2", "4", "5"] { // the separator, the disabled item, the submenu
                #expect(try run.menu("Event", [id, "clicked", "<''>", "0"]).status == 0)
            }
            #expect(try run.menu("Event", ["3", "hovered", "<''>", "0"]).status == 0)
            #expect(try run.menu("EventGroup", ["[(999, 'clicked', <''>, 0)]"]).status != 0, "no id of the group exists")
            let group = try run.menu("EventGroup", ["[(2, 'clicked', <''>, 0), (4, 'clicked', <''>, 0), (999, 'clicked', <''>, 0), (3, 'closed', <''>, 0)]"])
            #expect(group.status == 0 && group.out.contains("[999]"), "the ids not found: \(group.out)")

            // A flood: 2000 such events from one peer, all sent before any reply is awaited.
            let flood = try runProcess("/usr/bin/python3", ["-c", """
                import sys
                from gi.repository import Gio, GLib
                bus = Gio.bus_get_sync(Gio.BusType.SESSION)
                loop, pending = GLib.MainLoop(), [2000]
                def done(connection, result):
                    try: connection.call_finish(result)
                    except GLib.Error: pass
                    pending[0] -= 1
                    if pending[0] == 0: loop.quit()
                for index in range(2000):
                    item, kind = [(999, 'clicked'), (2, 'clicked'), (4, 'clicked'), (5, 'clicked'), (3, 'opened'), (-7, 'clicked')][index % 6]
                    bus.call(sys.argv[1], '/MenuBar', 'com.canonical.dbusmenu', 'Event', GLib.Variant('(isvu)', (item, kind, GLib.Variant('s', ''), 0)),
                             None, Gio.DBusCallFlags.NONE, -1, None, done)
                loop.run()
                print('SENT')
                """, run.name], timeout: 120, environment: run.bus.environment)
            #expect(flood.stdout.contains("SENT"), "\(flood)")
            #expect(run.app.isRunning, "\(run.app.standardError)")
            #expect(try run.menu("GetLayout", ["0", "int32 -1", "[]"]).out == before, "the menu changed")

            // A real choice after all of them: the only one the page hears.
            #expect(try run.menu("Event", ["1", "clicked", "<''>", "0"]).status == 0)
            #expect(run.server.waitForRequests(timeout: 20) { $0.contains("/activated?open") }, "\(run.server.requestedPaths)")
            #expect(run.choices == ["/activated?open"])
            #expect(run.app.end())
        }
    }
}
