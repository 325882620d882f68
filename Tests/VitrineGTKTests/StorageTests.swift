import Foundation
import Testing
import VitrineTestSupport

extension WebKitTests {
    /// `[storage]`: an app keeps its cookies and local storage across restarts in its data
    /// folder; a kiosk forgets them. The website data manager belongs to the process's web
    /// context, so each case runs the program twice.
    @Suite
    struct StorageTests {
        /// Reports what it found from the last run, then stores a value (and says so later).
        static let page = """
            <!doctype html><title>storage</title><script>
            const request = new XMLHttpRequest();
            request.open('GET', '/report?found=' + localStorage.getItem('kept'), false);
            request.send();
            localStorage.setItem('kept', 'yes');
            setTimeout(() => fetch('/stored'), 1500);
            </script>
            """

        /// Runs the program on `config` until the page has stored its value, then ends it
        /// with SIGTERM; returns what the page found from the run before.
        private func run(_ config: String, server: LoopbackHTTPServer, round: Int) throws -> String? {
            let program = try ProgramRun(["--config", config, "--new-instance"], watching: [server.requestLog])
            defer { program.kill() }
            let stored = { server.requestedPaths.filter { $0 == "/stored" }.count >= round }
            try #require(program.wait(until: stored), "round \(round): \(server.requestedPaths)")
            program.end()
            let reports = server.requestedPaths.filter { $0.hasPrefix("/report?found=") }
            return reports.count == round ? String(reports[round - 1].dropFirst("/report?found=".count)) : nil
        }

        @Test func anAppKeepsItsDataInItsFolderAndAKioskForgetsIt() throws {
            let server = try LoopbackHTTPServer(pages: ["index.html": Self.page])
            defer { server.stop() }
            let folder = try ConfigFolder()
            let data = folder.path + "/data"
            let app = try folder.write("app.toml", """
                preset = "app"
                start-url = "\(server.url("index.html").absoluteString)"
                [storage]
                data-directory = "\(data)"
                """)
            #expect(try run(app, server: server, round: 1) == "null")
            #expect(try run(app, server: server, round: 2) == "yes", "kept across the restart")
            #expect(FileManager.default.fileExists(atPath: data + "/data"), "in the configured folder")

            let kioskServer = try LoopbackHTTPServer(pages: ["index.html": Self.page])
            defer { kioskServer.stop() }
            let kiosk = try folder.write("kiosk.toml", """
                preset = "kiosk"
                start-url = "\(kioskServer.url("index.html").absoluteString)"
                [window]
                fullscreen = false
                """)
            #expect(try run(kiosk, server: kioskServer, round: 1) == "null")
            #expect(try run(kiosk, server: kioskServer, round: 2) == "null", "a kiosk starts afresh")
        }
    }
}
