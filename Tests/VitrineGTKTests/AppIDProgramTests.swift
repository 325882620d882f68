import Foundation
import Testing
import Vitrine
import VitrineTestSupport

extension WebKitTests {
    /// App ids, with real programs on a private session bus: each app is its own instance
    /// (bus name, window class, data folder), apps of other ids and the stock demo run beside
    /// it, and only a second start of the same app is handed over.
    @Suite
    struct AppIDProgramTests {
        /// Stores a secret with the `storage` capability, then goes to done.html?<outcome>.
        static let storingPage = """
            <!doctype html><title>A</title><script>
            (async () => {
              let outcome = 'stored';
              try { await vitrine.storage.set('token', 'secret-of-A'); } catch (e) { outcome = e.message; }
              location.href = 'done.html?' + encodeURIComponent(outcome);
            })();
            </script>
            """
        /// Reads the same key, then goes to done.html?<what it found>.
        static let readingPage = """
            <!doctype html><title>B</title><script>
            (async () => {
              let found;
              try { found = JSON.stringify(await vitrine.storage.get('token')); } catch (e) { found = e.message; }
              location.href = 'done.html?' + encodeURIComponent(found);
            })();
            </script>
            """

        /// An app folder with `page` and a configuration granting it storage; the config's path.
        private func app(_ name: String, page: String, appID: String?, in folder: borrowing ConfigFolder) throws -> (config: String, web: String) {
            try folder.write("\(name)/web/index.html", page)
            try folder.write("\(name)/web/done.html", "<!doctype html><title>done</title>")
            let web = folder.path + "/\(name)/web"
            let config = try folder.write("\(name)/vitrine.toml", """
                preset = "app"
                app-dir = "\(web)"
                \(appID.map { "app-id = \"\($0)\"" } ?? "")
                [capabilities]
                "app://app" = ["storage"]
                """)
            return (config, web)
        }

        /// The query of the app's first navigation to done.html, once its events log has one.
        private func outcome(_ log: String, _ run: ProgramRun) -> String? {
            var found: String?
            run.wait {
                found = eventLines(in: log).lazy.compactMap { $0["url"] }.first { $0.hasPrefix("app://app/done.html?") }
                return found != nil
            }
            return found.map { String($0.dropFirst("app://app/done.html?".count)).removingPercentEncoding ?? $0 }
        }

        /// The bus names owned on `bus`.
        private func busNames(_ bus: PrivateSessionBus) throws -> String {
            try runProcess("/usr/bin/gdbus", ["call", "--session", "--dest", "org.freedesktop.DBus", "--object-path", "/org/freedesktop/DBus",
                                              "--method", "org.freedesktop.DBus.ListNames"], timeout: 20, environment: bus.environment).stdout
        }

        /// WM_CLASS of the top-level windows of process `pid` (xprop on each of the screen's windows).
        private func windowClasses(of pid: Int32) throws -> [String] {
            let tree = try runProcess("/usr/bin/xwininfo", ["-root", "-children"], timeout: 20).stdout
            let windows = tree.split(separator: "\n").compactMap { $0.split(separator: " ").first { $0.hasPrefix("0x") } }
            return try windows.compactMap { window in
                let properties = try runProcess("/usr/bin/xprop", ["-id", String(window), "_NET_WM_PID", "WM_CLASS"], timeout: 20).stdout
                guard properties.contains("_NET_WM_PID(CARDINAL) = \(pid)\n") else { return nil }
                return properties.split(separator: "\n").first { $0.hasPrefix("WM_CLASS(") }.map(String.init)
            }
        }

        @Test func twoAppsAndTheDemoRunSideBySideEachWithItsOwnIdWindowClassAndData() throws {
            let bus = try PrivateSessionBus()
            defer { bus.stop() }
            let folder = try ConfigFolder()
            var environment = bus.environment
            environment["XDG_DATA_HOME"] = folder.path + "/data"
            let first = try app("one", page: Self.storingPage, appID: nil, in: folder)
            let second = try app("two", page: Self.readingPage, appID: "org.example.Second", in: folder)
            // No id in its file: one of its own, from its folder's real path.
            let firstID = ApplicationID.derived(fromFolder: URL(fileURLWithPath: first.web))

            let logA = folder.path + "/a.jsonl", logB = folder.path + "/b.jsonl"
            let a = try ProgramRun(["--config", first.config, "--events", logA], environment: environment)
            defer { a.end() }
            #expect(outcome(logA, a) == "stored")
            let b = try ProgramRun(["--config", second.config, "--events", logB], environment: environment)
            defer { b.end() }
            let demo = try ProgramRun([], environment: environment)
            defer { demo.end() }
            #expect(outcome(logB, b) == "null", "app B does not see app A's storage")

            // Each is up, on the bus under its own id.
            #expect(demo.wait { (try? busNames(bus).contains("'\(ApplicationID.stock)'")) == true }, "the demo's name")
            let names = try busNames(bus)
            for id in [firstID, "org.example.Second", ApplicationID.stock] { #expect(names.contains("'\(id)'"), "\(id) in \(names)") }
            #expect(a.process.isRunning && b.process.isRunning && demo.process.isRunning, "all three stay up")

            // Each its own data folder: A's secret only in A's.
            let data = folder.path + "/data"
            #expect(FileSystem.contents(of: "\(data)/\(firstID)/storage.json")?.contains("secret-of-A") == true)
            #expect(FileSystem.contents(of: "\(data)/org.example.Second/storage.json")?.contains("secret-of-A") != true)

            // Each window's class is its app's id.
            for (run, id) in [(a, firstID), (b, "org.example.Second"), (demo, ApplicationID.stock)] {
                var classes: [String] = []
                run.wait {
                    classes = (try? windowClasses(of: run.process.processIdentifier)) ?? []
                    return !classes.isEmpty
                }
                #expect(!classes.isEmpty && classes.allSatisfy { $0 == "WM_CLASS(STRING) = \"\(id)\", \"\(id)\"" }, "\(id): \(classes)")
            }

            // `vitrine ctl --app-id` reaches that app only.
            let vitrine = try BuiltProducts.path("vitrine")
            let reload = try runProcess(vitrine, ["ctl", "--app-id", "org.example.Second", "reload"], timeout: 20, environment: environment)
            #expect(reload.status == 0, "\(reload.stderr)")
            #expect(b.wait { eventLines(in: logB).contains { $0["navigationType"] == "reload" } })
            #expect(!eventLines(in: logA).contains { $0["navigationType"] == "reload" }, "not app A")
            let nobody = try runProcess(vitrine, ["ctl", "--app-id", "org.example.Nobody", "reload"], timeout: 20, environment: environment)
            #expect(nobody.status == 1 && nobody.stderr.contains("no Vitrine instance of org.example.Nobody is running"), "\(nobody.stderr)")
            let bad = try runProcess(vitrine, ["ctl", "--app-id", "../org.example.Second", "reload"], timeout: 20, environment: environment)
            #expect(bad.status == 64 && bad.stderr.contains("is not a reverse-DNS application id"), "\(bad.stderr)")

            // The same app started again (through a symlink to its folder, even) hands over.
            let link = folder.path + "/link"
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: folder.path + "/one")
            let again = try runProcess(vitrine, ["--config", link + "/vitrine.toml", "--app-dir", link + "/web"], timeout: 30, environment: environment)
            #expect(again.status == 0 && again.stderr.contains("handed over to the running instance of \(firstID)"), "\(again.stderr)")
            #expect(a.process.isRunning && b.process.isRunning && demo.process.isRunning)
        }

        @Test func anEmbeddersAppSendsNotificationsUnderItsOwnId() throws {
            let bus = try PrivateSessionBus()
            defer { bus.stop() }
            let service = try StandInService("fake_notifications.py", bus: bus)
            defer { kill(service.process.processIdentifier, SIGKILL) }
            let server = try LoopbackHTTPServer(pages: ["index.html": NotificationTests.page])
            defer { server.stop() }

            let embedder = try BuiltProducts.path("vitrine-embedder-check")
            let app = try ProgramRun(["org.example.Embedded", server.url("index.html").absoluteString, "notification"],
                                     environment: bus.environment, executable: embedder, watching: [server.requestLog])
            defer { app.end() }
            app.wait { server.requestedPaths.contains { $0.hasPrefix("/clicked?") } }
            #expect(server.requestedPaths.contains("/shown?result=order-7"), "\(server.requestedPaths)")
            #expect(server.requestedPaths.contains("/clicked?id=order-7"), "the click reached the page: \(server.requestedPaths)")

            // A second start of the same app hands over, and the first stays.
            let again = try runProcess(embedder, ["org.example.Embedded", server.url("index.html").absoluteString], timeout: 30,
                                       environment: bus.environment)
            #expect(again.status == 0 && again.stderr.contains("handed over to the running instance of org.example.Embedded"), "\(again.stderr)")
            #expect(app.isRunning)
            app.end()
            let lines = service.stop()
            let notify = try #require(lines.first { $0.hasPrefix("Notify ") }, "no Notify call: \(lines)")
            #expect(notify.hasPrefix("Notify org.example.Embedded | Order shipped | Order 7 is on its way |"), "sent as the app: \(notify)")
        }
    }
}
