import Foundation
import Testing
import VitrineTestSupport

extension WebKitTests {
    /// The `dialog` capability driven as a user would: the program's file dialog (GTK's own,
    /// no portal here) is found on the accessibility bus and a file is picked in it; the
    /// page reads the chosen file through the bridge, and is refused any other file, and the
    /// chosen one once it has been swapped for a symlink to another.
    @Suite
    struct DialogTests {
        static func page(folder: String) -> String {
            """
            <!doctype html><title>dialog</title><script>
            (async () => {
              const report = {};
              try {
                report.paths = await vitrine.dialog.open({title: 'Pick a file', directory: \(JSONText(folder))});
                report.text = await vitrine.dialog.readText(report.paths[0]);
                report.bytes = Array.from(await vitrine.dialog.readBytes(report.paths[0])).length;
              } catch (e) { report.error = e.message; }
              try { await vitrine.dialog.readText('/etc/hostname'); report.other = 'read'; } catch (e) { report.other = e.message; }
              // The test now swaps the chosen file for a symlink to another file: read until it shows.
              await fetch('/first-read');
              for (let i = 0; i < 200 && report.swapped === undefined; i++) {
                await new Promise((resolve) => setTimeout(resolve, 50));
                try {
                  const text = await vitrine.dialog.readText(report.paths[0]);
                  if (text !== report.text) report.swapped = text;
                } catch (e) { report.swapped = e.message; }
              }
              fetch('/report?' + encodeURIComponent(JSON.stringify(report)));
            })();
            </script>
            """
        }

        private static func JSONText(_ text: String) -> String {
            String(decoding: try! JSONEncoder().encode(text), as: UTF8.self)
        }

        @Test func aFilePickedInTheDialogIsReadableAndNoOtherIs() throws {
            let bus = try PrivateSessionBus()
            defer { bus.stop() }
            let folder = try ConfigFolder()
            // The file alone in its folder: GTK's file list, driven through AT-SPI, opens the
            // first row whichever row is selected (checked: a second file listed first wins).
            let files = folder.path + "/files"
            try FileManager.default.createDirectory(atPath: files, withIntermediateDirectories: true)
            let chosen = files + "/picked.txt"
            try "chosen by the user\n".write(toFile: chosen, atomically: true, encoding: .utf8)
            let server = try LoopbackHTTPServer(pages: ["index.html": Self.page(folder: files)])
            defer { server.stop() }
            let url = server.url("index.html").absoluteString
            let config = try folder.write("app.toml", """
                start-url = "\(url)"
                [capabilities]
                "\(url.replacingOccurrences(of: "/index.html", with: ""))" = ["dialog"]
                """)
            var environment = try bus.accessibleEnvironment
            environment["GTK_USE_PORTAL"] = "0"
            let app = try ProgramRun(["--config", config, "--new-instance"], environment: environment)
            defer { app.kill() }

            // The user: a fresh look at the accessibility bus each time, until the dialog is there.
            let said = try AccessibilityUser.run("choose_file.py", ["picked.txt"], environment: environment, app: app) { $0.hasPrefix("CHOSE") }
            let runningAfterUser = app.isRunning
            if !said.hasPrefix("CHOSE") { app.end() }
            try #require(said.hasPrefix("CHOSE"), """
                the file was not found in a dialog:
                \(said)
                the program (running: \(runningAfterUser), status \(app.process.terminationStatus)) said: \(app.standardError)
                """)

            // Once the page has read the file: the file becomes a symlink to another one.
            let secret = folder.path + "/secret.txt"
            try "not chosen\n".write(toFile: secret, atomically: true, encoding: .utf8)
            server.waitForRequests(timeout: 20) { $0.contains("/first-read") }
            try FileManager.default.removeItem(atPath: chosen)
            try FileManager.default.createSymbolicLink(atPath: chosen, withDestinationPath: secret)

            var reports: [String] = []
            server.waitForRequests(timeout: 20) { paths in
                reports = paths.filter { $0.hasPrefix("/report?") }
                return !reports.isEmpty
            }
            app.end()
            let text = try #require(reports.first?.dropFirst("/report?".count).removingPercentEncoding)
            let report = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            #expect(report["paths"] as? [String] == [chosen], "\(report)")
            #expect(report["text"] as? String == "chosen by the user\n")
            #expect(report["bytes"] as? Int == 19)
            #expect(report["other"] as? String == "dialog: read: /etc/hostname was not chosen in a dialog")
            #expect(report["swapped"] as? String == "dialog: read: \(chosen) is no longer the file chosen (it was replaced since); choose it again",
                    "\(report)")
        }
    }
}
