import Foundation
import Testing
import VitrineTestSupport

extension WebKitTests {
    /// The `menu` capability as a user sees it: the page's menu bar is found and chosen on the
    /// accessibility bus (GTK's own menu widgets), the choice reaches the page; frames that
    /// may not set menus (sandboxed, foreign, a same-origin frame) are refused; the menu goes
    /// with the document that set it.
    @Suite
    struct MenuWindowTests {
        static let appID = "org.example.MenuTest"

        static let index = """
            <!doctype html><title>menus</title>
            <iframe sandbox="allow-scripts" srcdoc="<script>vitrine.menu.set([{id: 'evil', label: 'Evil'}]).then(
              () => fetch('/sandboxed?set'), (e) => fetch('/sandboxed?' + encodeURIComponent(e.message)))</script>"></iframe>
            <iframe src="/inner.html"></iframe>
            <iframe src="FOREIGN"></iframe>
            <script>
            vitrine.menu.on('activated', (choice) => {
              // Leaves only once the report is in: a navigation would cancel the fetch.
              fetch('/chosen?' + encodeURIComponent(JSON.stringify(choice)))
                .finally(() => { if (choice.checked === true) location.href = '/second.html'; });
            });
            vitrine.menu.set([{label: 'File', items: [{id: 'open', label: 'Open', accelerator: 'Ctrl+O'}, '-',
              {id: 'wrap', label: 'Wrap lines', checked: false}, {id: 'off', label: 'Unavailable', enabled: false}]}])
              .then(() => fetch('/menu-set'), (e) => fetch('/menu-set?' + encodeURIComponent(e.message)));
            </script>
            """

        /// A frame that tries to set the window's menus and reports what it was told.
        static func framePage(_ report: String) -> String {
            """
            <!doctype html><script>
            vitrine.menu.set([{id: 'evil', label: 'Evil'}]).then(() => fetch('/\(report)?set'),
              (e) => fetch('/\(report)?' + encodeURIComponent(e.message)));
            </script>
            """
        }

        /// Runs menu_atspi.py until it succeeds; its last output.
        private static func atspi(_ arguments: [String], environment: [String: String], app: ProgramRun,
                                  until done: (String) -> Bool) throws -> String {
            try AccessibilityUser.run("menu_atspi.py", [appID] + arguments, environment: environment, app: app, until: done)
        }

        private static func reports(_ server: LoopbackHTTPServer, _ name: String) -> [String] {
            server.requestedPaths.filter { $0.hasPrefix("/\(name)?") }
                .map { String($0.dropFirst(name.count + 1)).removingPercentEncoding ?? $0 }
        }

        @Test func aPageMenuIsChosenThroughAccessibilityAndGoesWithItsDocument() throws {
            let bus = try PrivateSessionBus()
            defer { bus.stop() }
            let folder = try ConfigFolder()
            let server = try LoopbackHTTPServer(pages: [
                "inner.html": Self.framePage("inner"), "foreign.html": Self.framePage("foreign"),
                "second.html": "<!doctype html><title>second</title><script>fetch('/second-loaded')</script>",
            ])
            defer { server.stop() }
            try Self.index.replacingOccurrences(of: "FOREIGN", with: server.url("foreign.html", host: "localhost").absoluteString)
                .write(to: server.directory.appendingPathComponent("index.html"), atomically: true, encoding: .utf8)
            let origin = "http://127.0.0.1:\(server.port)"
            let config = try folder.write("app.toml", """
                app-id = "\(Self.appID)"
                start-url = "\(origin)/index.html"
                allowed-origins = ["\(origin)", "http://localhost:\(server.port)"]
                [capabilities]
                "\(origin)" = ["menu"]
                """)
            let environment = try bus.accessibleEnvironment
            let app = try ProgramRun(["--config", config, "--new-instance"], environment: environment)
            defer { app.kill() }

            #expect(server.waitForRequests(timeout: 30) { paths in
                ["/menu-set", "/sandboxed?", "/inner?", "/foreign?"].allSatisfy { name in paths.contains { $0.hasPrefix(name) } }
            }, "\(server.requestedPaths)\n\(app.standardError)")
            #expect(server.requestedPaths.contains("/menu-set"), "\(server.requestedPaths)")
            #expect(Self.reports(server, "sandboxed") == [
                #"?capability "menu" is not granted to an opaque origin (a sandboxed frame) — add it to [capabilities] in the config"#])
            #expect(Self.reports(server, "inner") == ["?menu: only the window's top document may set its menus, not a frame inside it"])
            #expect(Self.reports(server, "foreign") == [
                #"?capability "menu" is not granted to http://localhost:\#(server.port) — add it to [capabilities] in the config"#])

            // The menu bar as the desktop's accessibility sees it: every item, its state, nothing of the frames'.
            let listed = try Self.atspi(["list"], environment: environment, app: app) { $0.contains("File/Unavailable") }
            #expect(listed.split(separator: "\n").sorted() == ["File enabled", "File/Open enabled", "File/Unavailable disabled",
                                                               "File/Wrap lines enabled"], "\(listed)\n\(app.standardError)")

            let opened = try Self.atspi(["choose", "File/Open"], environment: environment, app: app) { $0.hasPrefix("CHOSE") }
            #expect(opened.hasPrefix("CHOSE"), "\(opened)")
            #expect(server.waitForRequests(timeout: 20) { $0.contains { $0.hasPrefix("/chosen") } })
            let wrapped = try Self.atspi(["choose", "File/Wrap lines"], environment: environment, app: app) { $0.hasPrefix("CHOSE") }
            #expect(wrapped.hasPrefix("CHOSE"), "\(wrapped)")
            // The check item's choice makes the page go to another document, which sets no menu.
            #expect(server.waitForRequests(timeout: 20) { $0.contains("/second-loaded") })
            #expect(Self.reports(server, "chosen") == [#"?{"id":"open","menu":"bar"}"#, #"?{"id":"wrap","menu":"bar","checked":true}"#])

            let after = try Self.atspi(["list"], environment: environment, app: app) { !$0.contains("File") }
            #expect(!after.contains("File"), "the first document's menu bar outlived it: \(after)")
            #expect(app.end())
        }
    }
}
