import Foundation
import Testing
import VitrineTestSupport

extension WebKitTests {
    /// `[window] remember`: the size a window was left at comes back at the next start of the
    /// program, kept per app id (with the position, under X11).
    @Suite
    struct WindowStateTests {
        /// Reports the window's size; in the first run, then resizes it and says so once done.
        static let page = """
            <!doctype html><title>remember</title><script>
            (async () => {
              const state = await vitrine.window.state();
              await fetch('/report?size=' + state.width + 'x' + state.height);
              if (state.width === 640) {
                vitrine.window.on('resize', (size) => { if (size.width === 700) fetch('/resized'); });
                await vitrine.window.resize(700, 500);
              }
            })();
            </script>
            """

        private func run(_ config: String, dataHome: String, server: LoopbackHTTPServer, until path: String, count: Int) throws {
            let program = try ProgramRun(["--config", config, "--new-instance"], environment: ProgramRun.environment(dataHome: dataHome),
                                         watching: [server.requestLog])
            defer { program.end() }
            try #require(program.wait { server.requestedPaths.filter { $0.hasPrefix(path) }.count >= count },
                         "waiting for \(path): \(server.requestedPaths)")
        }

        @Test func theSizeTheWindowWasLeftAtComesBackAtTheNextStart() throws {
            let server = try LoopbackHTTPServer(pages: ["index.html": Self.page])
            defer { server.stop() }
            let folder = try ConfigFolder()
            let url = server.url("index.html").absoluteString
            let config = try folder.write("app.toml", """
                start-url = "\(url)"
                app-id = "org.example.Remembered"
                [window]
                remember = true
                width = 640
                height = 480
                [capabilities]
                "\(url.replacingOccurrences(of: "/index.html", with: ""))" = ["window"]
                """)
            let dataHome = folder.path + "/data-home"
            try run(config, dataHome: dataHome, server: server, until: "/resized", count: 1)
            try run(config, dataHome: dataHome, server: server, until: "/report?", count: 2)
            let reports = server.requestedPaths.filter { $0.hasPrefix("/report?") }
            #expect(reports == ["/report?size=640x480", "/report?size=700x500"])
            let saved = try String(contentsOfFile: dataHome + "/org.example.Remembered/window.json", encoding: .utf8)
            let state = try #require(try JSONSerialization.jsonObject(with: Data(saved.utf8)) as? [String: Any])
            #expect(state["width"] as? Int == 700 && state["height"] as? Int == 500 && state["maximized"] as? Bool == false, "\(saved)")
            #expect(state["x"] is Int && state["y"] is Int, "the position, under X11: \(saved)")
        }
    }
}
