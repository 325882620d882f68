import Foundation
import Testing
import VitrineTestSupport

extension WebKitTests {
    /// The `storage` capability across two runs of the program: what the page stored in the
    /// first run it reads in the second, from `$XDG_DATA_HOME/<app-id>/storage.json`.
    @Suite
    struct CapabilityStorageTests {
        /// Reports what it found from the last run once it has stored the next value.
        static let page = """
            <!doctype html><title>kept</title><script>
            (async () => {
              let found;
              try { found = await vitrine.storage.get('kept'); } catch (e) { found = e.message; }
              const runs = found && typeof found === 'object' ? found.runs + 1 : 1;
              let stored = 'stored';
              try { await vitrine.storage.set('kept', {runs, order: ['z', 'a']}); } catch (e) { stored = e.message; }
              const report = found && typeof found === 'object' ? found.runs + ':' + found.order.join(',') : String(found);
              fetch('/report?found=' + encodeURIComponent(report) + '&stored=' + encodeURIComponent(stored));
            })();
            </script>
            """

        /// Runs the program until the page reports, then ends it; returns the report's query.
        private func run(_ config: String, dataHome: String, server: LoopbackHTTPServer, round: Int) throws -> String {
            let program = try ProgramRun(["--config", config, "--new-instance"], environment: ProgramRun.environment(dataHome: dataHome),
                                         watching: [server.requestLog])
            defer { program.end() }
            let reports = { server.requestedPaths.filter { $0.hasPrefix("/report?") } }
            try #require(program.wait { reports().count >= round }, "round \(round): \(server.requestedPaths)")
            return (reports()[round - 1].dropFirst("/report?".count).removingPercentEncoding ?? "")
        }

        @Test func aGrantedPageFindsWhatItStoredInTheRunBefore() throws {
            let server = try LoopbackHTTPServer(pages: ["index.html": Self.page])
            defer { server.stop() }
            let folder = try ConfigFolder()
            let origin = server.url("index.html").absoluteString.replacingOccurrences(of: "/index.html", with: "")
            let config = try folder.write("app.toml", """
                start-url = "\(server.url("index.html").absoluteString)"
                app-id = "org.example.Kept"
                [capabilities]
                "\(origin)" = ["storage"]
                """)
            let dataHome = folder.path + "/data-home"
            #expect(try run(config, dataHome: dataHome, server: server, round: 1) == "found=null&stored=stored")
            #expect(try run(config, dataHome: dataHome, server: server, round: 2)
                == "found=1:z,a&stored=stored", "kept across the restart")
            let file = dataHome + "/org.example.Kept/storage.json"
            let saved = try String(contentsOfFile: file, encoding: .utf8)
            #expect(saved.contains(#""runs":2"#), "\(saved)")
        }
    }
}
