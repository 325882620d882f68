import Foundation
import Testing
import VitrineTestSupport

extension WebKitTests {
    /// The `notification` capability: the program's GNotification reaches the session's
    /// org.freedesktop.Notifications (a stand-in service on a private bus), and the
    /// stand-in's click brings the page `notification:clicked`. Without the session
    /// instance (`--new-instance`) there is no application to notify from: a clear rejection.
    @Suite
    struct NotificationTests {
        static let page = """
            <!doctype html><title>notify</title><script>
            vitrine.notification.on('clicked', ({id}) => fetch('/clicked?id=' + encodeURIComponent(id)));
            (async () => {
              let result;
              try { result = (await vitrine.notification.show({title: 'Order shipped', body: 'Order 7 is on its way', id: 'order-7'})).id; }
              catch (e) { result = e.message; }
              fetch('/shown?result=' + encodeURIComponent(result));
            })();
            </script>
            """

        private func waitFor(_ server: LoopbackHTTPServer, _ prefix: String, count: Int = 1) -> [String] {
            var found: [String] = []
            server.waitForRequests { paths in
                found = paths.filter { $0.hasPrefix(prefix) }
                return found.count >= count
            }
            return found.map { $0.removingPercentEncoding ?? $0 }
        }

        @Test func aNotificationReachesTheDesktopAndItsClickReachesThePage() throws {
            let bus = try PrivateSessionBus()
            defer { bus.stop() }
            let service = try StandInService("fake_notifications.py", bus: bus)
            defer { kill(service.process.processIdentifier, SIGKILL) }

            let server = try LoopbackHTTPServer(pages: ["index.html": Self.page])
            defer { server.stop() }
            let url = server.url("index.html").absoluteString
            let folder = try ConfigFolder()
            let config = try folder.write("app.toml", """
                start-url = "\(url)"
                [capabilities]
                "\(url.replacingOccurrences(of: "/index.html", with: ""))" = ["notification"]
                """)

            let app = try ProgramRun(["--config", config], environment: bus.environment)
            defer { app.end() }
            #expect(waitFor(server, "/shown?") == ["/shown?result=order-7"])
            #expect(waitFor(server, "/clicked?") == ["/clicked?id=order-7"], "the click reached the page")

            // Without the session instance: no application, a clear rejection.
            let alone = try ProgramRun(["--config", config, "--new-instance"], environment: bus.environment)
            defer { alone.end() }
            let shown = waitFor(server, "/shown?", count: 2)
            #expect(shown.last == "/shown?result=notification: no desktop session bus for notifications (vitrine runs without remote control here)")
            alone.end()
            app.end()
            let lines = service.stop()
            let notify = try #require(lines.first { $0.hasPrefix("Notify ") }, "no Notify call: \(lines)")
            #expect(notify.contains("| Order shipped | Order 7 is on its way | default,"), "\(notify)")
            #expect(lines.filter { $0.hasPrefix("Notify ") }.count == 1, "one notification: \(lines)")
        }
    }
}
