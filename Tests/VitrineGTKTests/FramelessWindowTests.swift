import Foundation
import Testing
import VitrineTestSupport

extension WebKitTests {
    /// `[window] decorations = false` under a real window manager (openbox): the window has
    /// no frame, a press on the page's drag region moves it (xdotool's pointer, the window's
    /// position before and after), and a page cannot start a move without a press.
    @Suite
    struct FramelessWindowTests {
        static let page = """
            <!doctype html><title>frameless</title><body style="margin:0">
            <div data-vitrine-drag-region style="height:60px;background:#345;color:#fff">My app
              <button data-vitrine-no-drag style="float:right" onclick="vitrine.window.close()">×</button></div>
            <p>content</p>
            <script>
            vitrine.window.beginMove().then(() => fetch('/unpressed?moved'),
              (e) => fetch('/unpressed?' + encodeURIComponent(e.message)));
            </script>
            """

        private func geometry(_ window: String) -> (x: Int, y: Int)? {
            guard let text = try? runProcess("/usr/bin/xdotool", ["getwindowgeometry", window]).stdout,
                  let line = text.split(separator: "\n").first(where: { $0.contains("Position:") }) else { return nil }
            let numbers = line.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
            return numbers.count >= 2 ? (numbers[0], numbers[1]) : nil
        }

        @Test func aDragRegionMovesAFramelessWindow() throws {
            let server = try LoopbackHTTPServer(pages: ["index.html": Self.page])
            defer { server.stop() }
            let windowManager = try Openbox()
            defer { windowManager.stop() }

            let folder = try ConfigFolder()
            let origin = "http://127.0.0.1:\(server.port)"
            let config = try folder.write("app.toml", """
                start-url = "\(origin)/index.html"
                [window]
                decorations = false
                width = 400
                height = 300
                [capabilities]
                "\(origin)" = ["window"]
                """)
            let program = try ProgramRun(["--config", config, "--new-instance"])
            defer { program.kill() }
            #expect(server.waitForRequests(timeout: 30) { $0.contains { $0.hasPrefix("/unpressed") } })
            #expect(server.requestedPaths.filter { $0.hasPrefix("/unpressed") }.map { $0.removingPercentEncoding ?? $0 }
                == ["/unpressed?window: beginMove: only while the pointer's first button is held (a press on a drag region)"])

            let window = try #require(try windowManager.managedWindow(of: program.process.processIdentifier), "openbox manages the window")
            // No frame: openbox's frame extents are all zero.
            let extents = try runProcess("/usr/bin/xprop", ["-id", window, "_NET_FRAME_EXTENTS"]).stdout
            #expect(extents.contains("= 0, 0, 0, 0"), "\(extents)")

            let before = try #require(geometry(window))
            let (x, y) = (before.x + 100, before.y + 20)
            let drag = try runProcess("/usr/bin/xdotool", [
                "mousemove", String(x), String(y), "sleep", "0.3", "mousedown", "1", "sleep", "0.5",
                "mousemove", String(x + 20), String(y + 20), "sleep", "0.2", "mousemove", String(x + 80), String(y + 60), "sleep", "0.2",
                "mousemove", String(x + 150), String(y + 120), "sleep", "0.3", "mouseup", "1"])
            #expect(drag.status == 0, "\(drag.stderr)")
            var after = before
            #expect(program.wait(timeout: 10) {
                after = geometry(window) ?? before
                return after.x != before.x || after.y != before.y
            }, "the window stayed at \(before): \(program.standardError)")
            #expect(abs(after.x - before.x - 150) <= 10 && abs(after.y - before.y - 120) <= 10, "moved from \(before) to \(after)")
        }
    }
}
