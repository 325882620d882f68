import Foundation
import Testing
import VitrineTestSupport

extension WebKitTests {
    /// Global shortcuts under Wayland through the desktop portal's GlobalShortcuts: the
    /// program on a real Wayland compositor (sway's headless backend, GDK's Wayland backend)
    /// and a private session bus on which a STAND-IN portal (`fake_global_shortcuts_portal.py`)
    /// plays org.freedesktop.portal.Desktop — Debian 12 has no portal that implements
    /// GlobalShortcuts, so the real one cannot run here. The stand-in follows the portal's
    /// Request/Response protocol, answers as the test tells it in place of the user, and
    /// emits `Activated` on request.
    @Suite
    struct PortalShortcutTests {
        /// Registers `keys` (`|`-separated `Keys=id` pairs) one after the other and tells the
        /// server each result; tells it each shortcut it hears; `Ctrl+Alt+L` leaves for `to`.
        static func page(registering keys: String, leavingTo next: String = "") -> String {
            """
            <!doctype html><title>keys</title><script>
            let heard = 0;
            vitrine.shortcuts.on('shortcut', (key) => {
              heard += 1;
              if (key.id === 'leave') { location = '\(next)'; return; }
              fetch('/pressed?page=' + location.pathname.slice(1) + '&id=' + key.id + '&keys=' + key.accelerator + '&n=' + heard);
            });
            (async () => {
              for (const pair of '\(keys)'.split('|')) {
                const [keys, id] = pair.split('=');
                let result;
                try { result = await vitrine.shortcuts.register(keys, id); } catch (e) { result = 'error: ' + e.message; }
                await fetch('/registered?id=' + id + '&result=' + encodeURIComponent(result));
              }
            })();
            </script>
            """
        }

        /// The stand-in portal, the compositor, the pages' server and the program on them.
        final class Run {
            let bus: PrivateSessionBus
            let portal: StandInService?
            let folder: ConfigFolder
            let compositor: SwayHeadless
            let server: LoopbackHTTPServer
            let program: ProgramRun
            let log: String

            init(pages: [String: String], portalArguments: [String]? = [], answer: UInt32 = 0) throws {
                let bus = try PrivateSessionBus()
                self.bus = bus
                portal = try portalArguments.map { try StandInService("fake_global_shortcuts_portal.py", $0, bus: bus) }
                folder = try ConfigFolder()
                compositor = try SwayHeadless(in: folder)
                let server = try LoopbackHTTPServer(pages: pages)
                self.server = server
                log = folder.url.appendingPathComponent("events.jsonl").path
                let config = try folder.write("app.toml", """
                    start-url = "\(server.url("index.html"))"
                    [capabilities]
                    "\(server.url("").absoluteString.dropLast())" = ["shortcuts"]
                    """)
                var environment = compositor.programEnvironment
                environment["DBUS_SESSION_BUS_ADDRESS"] = bus.address
                if portalArguments != nil { try Self.control("Answer", "\(answer)", on: bus) }
                program = try ProgramRun(["--config", config, "--new-instance", "--events", log], environment: environment)
            }

            /// Calls the stand-in's control method (`gdbus call`); its output.
            @discardableResult
            func control(_ method: String, _ arguments: String...) throws -> String {
                try Self.control(method, arguments, on: bus)
            }

            @discardableResult
            static func control(_ method: String, _ arguments: String..., on bus: PrivateSessionBus) throws -> String {
                try control(method, arguments, on: bus)
            }

            static func control(_ method: String, _ arguments: [String], on bus: PrivateSessionBus) throws -> String {
                let run = try runProcess("/usr/bin/gdbus", ["call", "--session", "--dest", "org.freedesktop.portal.Desktop",
                                                            "--object-path", "/org/vitrine/tests/PortalControl",
                                                            "--method", "org.vitrine.tests.PortalControl.\(method)"] + arguments,
                                         timeout: 20, environment: bus.environment)
                #expect(run.status == 0, "\(method): \(run.stderr)")
                return run.stdout
            }

            /// The requests to the server that start with `prefix` once there are `count`, decoded.
            func requests(_ prefix: String, count: Int = 1) -> [String] {
                var found: [String] = []
                server.waitForRequests { paths in
                    found = paths.filter { $0.hasPrefix(prefix) }
                    return found.count >= count
                }
                return found.map { $0.removingPercentEncoding ?? $0 }
            }

            /// Stops everything; the stand-in's lines.
            func stop() -> [String] {
                program.end()
                let lines = portal?.stop() ?? []
                server.stop()
                compositor.stop()
                bus.stop()
                return lines
            }
        }

        @Test func aBoundShortcutReachesThePageThatRegisteredItAndGoesWithIt() throws {
            let run = try Run(pages: [
                "index.html": Self.page(registering: "Ctrl+Alt+K=search|Ctrl+Alt+L=leave", leavingTo: "other.html"),
                "other.html": Self.page(registering: "Ctrl+Alt+J=next"),
            ])
            var stopped = false
            defer { if !stopped { _ = run.stop() } }
            #expect(run.requests("/registered?", count: 2) == ["/registered?id=search&result=Ctrl+Alt+K", "/registered?id=leave&result=Ctrl+Alt+L"])
            try run.control("Activate", "Ctrl+Alt+K")
            #expect(run.requests("/pressed?") == ["/pressed?page=index.html&id=search&keys=Ctrl+Alt+K&n=1"])

            // ABUSE: an Activated for another session, for an id the app never bound or by the
            // page's own id, and one forged by another client of the bus with the bound session
            // reach no page; the next true one is the page's second shortcut (and the totals
            // below count every press the page heard).
            let session = try #require(run.control("BoundSession").split(separator: "'").dropFirst().first.map(String.init))
            try run.control("ActivateIn", "/org/freedesktop/portal/desktop/session/1_99/other", "Ctrl+Alt+K")
            try run.control("Activate", "Ctrl+Alt+X")
            try run.control("Activate", "search")
            let forged = try runProcess("/usr/bin/gdbus", ["emit", "--session", "--object-path", "/org/freedesktop/portal/desktop",
                                                           "--signal", "org.freedesktop.portal.GlobalShortcuts.Activated",
                                                           "objectpath '\(session)'", "'Ctrl+Alt+K'", "uint64 7", "@a{sv} {}"],
                                        timeout: 20, environment: run.bus.environment)
            #expect(forged.status == 0, "\(forged.stderr)")
            try run.control("Activate", "Ctrl+Alt+K")
            let pressed = run.requests("/pressed?", count: 2)
            #expect(pressed.last == "/pressed?page=index.html&id=search&keys=Ctrl+Alt+K&n=2", "\(pressed)")

            // A flood of Activated: every one reaches the page, and the program stays up.
            try run.control("Flood", "Ctrl+Alt+K", "200")
            let flooded = run.requests("/pressed?", count: 202) // the page's fetches may land in any order
            #expect(Set(flooded) == Set((1...202).map { "/pressed?page=index.html&id=search&keys=Ctrl+Alt+K&n=\($0)" }))
            #expect(run.program.process.isRunning)

            // The page goes (its own shortcut navigates): its shortcuts go with it; the next
            // page's are bound without them, and the old keys reach nobody.
            try run.control("Activate", "Ctrl+Alt+L")
            #expect(run.requests("/registered?", count: 3).last == "/registered?id=next&result=Ctrl+Alt+J")
            try run.control("Activate", "Ctrl+Alt+K")
            try run.control("ActivateIn", session, "Ctrl+Alt+K")
            try run.control("Activate", "Ctrl+Alt+J")
            let afterwards = run.requests("/pressed?page=other.html")
            #expect(afterwards == ["/pressed?page=other.html&id=next&keys=Ctrl+Alt+J&n=1"], "\(afterwards)")
            #expect(run.server.requestedPaths.filter { $0.hasPrefix("/pressed?") }.count == 203)
            let shortcuts = eventDetails("shortcut", in: run.log)
            #expect(shortcuts.count == 204 && shortcuts.last == "next Ctrl+Alt+J", "\(shortcuts.suffix(3))")

            stopped = true
            let lines = run.stop()
            let binds = lines.filter { $0.hasPrefix("BindShortcuts ") }.map { $0.split(separator: " ").dropFirst(2).joined(separator: " ") }
            #expect(binds == ["Ctrl+Alt+K=CTRL+ALT+k|search", "Ctrl+Alt+K=CTRL+ALT+k|search,Ctrl+Alt+L=CTRL+ALT+l|leave",
                              "Ctrl+Alt+J=CTRL+ALT+j|next"], "\(lines)")
            let sessions = lines.filter { $0.hasPrefix("CreateSession ") }.map { String($0.dropFirst("CreateSession ".count)) }
            #expect(sessions.count == 3 && sessions[1] == session, "\(lines)")
            // Each session is closed once another holds the keys (or none are left).
            #expect(sessions.prefix(2).allSatisfy { lines.contains("Close \($0)") }, "\(lines)")
        }

        @Test func aShortcutTheUserDeclinesIsRefusedWithTheReason() throws {
            let run = try Run(pages: ["index.html": Self.page(registering: "Ctrl+Alt+K=search")], answer: 1)
            var stopped = false
            defer { if !stopped { _ = run.stop() } }
            #expect(run.requests("/registered?") == [
                "/registered?id=search&result=error: shortcuts: Ctrl+Alt+K was refused: the user cancelled the desktop's shortcuts dialog"])
            // Nothing of it is held: an Activated for it reaches nobody.
            try run.control("Activate", "Ctrl+Alt+K")
            stopped = true
            let lines = run.stop()
            #expect(!run.server.requestedPaths.contains { $0.hasPrefix("/pressed?") })
            let session = try #require(lines.first { $0.hasPrefix("BindShortcuts ") }?.split(separator: " ")[1], "\(lines)")
            #expect(lines.contains("Close \(session)"), "the declined session is closed: \(lines)")
        }

        @Test func aMoveTheUserDeclinesKeepsTheKeysBoundBefore() throws {
            // `again` moves `search` to other keys; the user declines that bind.
            let page = """
                <!doctype html><title>keys</title><script>
                const report = async (id, register) => {
                  let result;
                  try { result = await register(); } catch (e) { result = 'error: ' + e.message; }
                  await fetch('/registered?id=' + id + '&result=' + encodeURIComponent(result));
                };
                vitrine.shortcuts.on('shortcut', (key) => {
                  if (key.id === 'again') { report('moved', () => vitrine.shortcuts.register('Ctrl+Alt+J', 'search')); return; }
                  fetch('/pressed?id=' + key.id + '&keys=' + key.accelerator);
                });
                (async () => {
                  await report('search', () => vitrine.shortcuts.register('Ctrl+Alt+K', 'search'));
                  await report('again', () => vitrine.shortcuts.register('Ctrl+Alt+A', 'again'));
                })();
                </script>
                """
            let run = try Run(pages: ["index.html": page])
            var stopped = false
            defer { if !stopped { _ = run.stop() } }
            #expect(run.requests("/registered?", count: 2) == ["/registered?id=search&result=Ctrl+Alt+K", "/registered?id=again&result=Ctrl+Alt+A"])
            try run.control("Answer", "1")
            try run.control("Activate", "Ctrl+Alt+A")
            #expect(run.requests("/registered?", count: 3).last
                == "/registered?id=moved&result=error: shortcuts: Ctrl+Alt+J was refused: the user cancelled the desktop's shortcuts dialog")
            // The session bound before still holds Ctrl+Alt+K for `search`: it reaches the page.
            try run.control("Activate", "Ctrl+Alt+K")
            #expect(run.requests("/pressed?") == ["/pressed?id=search&keys=Ctrl+Alt+K"])
            stopped = true
            let lines = run.stop()
            #expect(lines.filter { $0.hasPrefix("BindShortcuts ") }.count == 3, "\(lines)")
        }

        @Test func aPortalWithoutGlobalShortcutsOrNoneIsAClearRefusal() throws {
            let reason = "error: shortcuts: this Wayland session's desktop portal does not offer GlobalShortcuts "
                + "(xdg-desktop-portal ≥ 1.17 with a backend that implements it, e.g. KDE Plasma 6 or GNOME 48)"
            for arguments in [["--without-global-shortcuts"], nil] {
                let run = try Run(pages: ["index.html": Self.page(registering: "Ctrl+Alt+K=search")], portalArguments: arguments)
                #expect(run.requests("/registered?") == ["/registered?id=search&result=" + reason], "\(String(describing: arguments))")
                let lines = run.stop()
                #expect(!lines.contains { $0.hasPrefix("CreateSession") })
            }
        }
    }
}
