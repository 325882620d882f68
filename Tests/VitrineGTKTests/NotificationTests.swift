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

        static let buttonsPage = """
            <!doctype html><title>buttons</title><script>
            const attempt = async (options) => {
              try { return (await vitrine.notification.show(options)).id; } catch (e) { return e.message; }
            };
            vitrine.notification.on('action', ({id, action}) => {
              fetch('/action?id=' + id + '&action=' + action).then(() => { if (action === 'track') location.href = 'second.html'; });
            });
            (async () => {
              const shown = await attempt({title: 'Order shipped', id: 'order-8',
                                           actions: [{id: 'track', label: 'Track'}, {id: 'later', label: 'Later'}]});
              if (shown === 'order-8') await attempt({title: 'Order packed', id: 'order-9', actions: [{id: 'open', label: 'Open'}]});
              const tooMany = await attempt({title: 'x', actions: ['a', 'b', 'c', 'd'].map((id) => ({id, label: id}))});
              const badID = await attempt({title: 'x', actions: [{id: '../x', label: 'X'}]});
              fetch('/shown?result=' + encodeURIComponent(shown) + '&tooMany=' + encodeURIComponent(tooMany)
                    + '&badID=' + encodeURIComponent(badID));
            })();
            </script>
            """

        /// Buttons: refused while the bus has no notification server; then shown, and the
        /// stand-in's press (ActionInvoked, as a real server emits it) reaches the document
        /// that showed them. Once it has navigated away, the same button reaches nobody, nor
        /// does a forged activation of the app's action naming an old showing, and its other
        /// notification with buttons is taken off the desktop (CloseNotification).
        @Test func aPressedButtonReachesOnlyTheDocumentThatShowedIt() throws {
            let bus = try PrivateSessionBus()
            defer { bus.stop() }
            let server = try LoopbackHTTPServer(pages: [
                "index.html": Self.buttonsPage,
                "second.html": """
                    <!doctype html><title>second</title><script>
                    vitrine.notification.on('action', ({id, action}) => fetch('/second-action?id=' + id + '&action=' + action));
                    fetch('/second-ready');
                    </script>
                    """])
            defer { server.stop() }
            let url = server.url("index.html").absoluteString
            let appID = "org.example.NotifyButtons"
            let folder = try ConfigFolder()
            let config = try folder.write("app.toml", """
                start-url = "\(url)"
                app-id = "\(appID)"
                [capabilities]
                "\(url.replacingOccurrences(of: "/index.html", with: ""))" = ["notification"]
                """)
            let events = folder.path + "/events.jsonl"
            let app = try ProgramRun(["--config", config, "--events", events], environment: bus.environment)
            defer { app.end() }
            func notificationAction(_ detail: String) -> Bool {
                app.wait { app.events.contains { $0["action"] as? String == "notification-action" && $0["detail"] as? String == detail } }
            }
            let refusals = "&tooMany=notification: show: field \"actions\" holds at most 3 actions, got 4"
                + "&badID=notification: show: field \"actions[0].id\" is invalid: it is 1 to 32 of A-Z a-z 0-9 . _ -"
            #expect(waitFor(server, "/shown?") == [
                "/shown?result=notification: no notification server on the desktop session bus (org.freedesktop.Notifications)" + refusals])

            // A notification server comes; the page shows its notification again.
            let service = try StandInService("fake_notifications.py", bus: bus)
            defer { kill(service.process.processIdentifier, SIGKILL) }
            let reload = try runProcess("/usr/bin/gapplication", ["action", appID, "reload"], timeout: 20, environment: bus.environment)
            #expect(reload.status == 0, "\(reload.stderr)")
            #expect(waitFor(server, "/shown?", count: 2).last == "/shown?result=order-8" + refusals)

            func press(_ label: String) throws -> String {
                try runProcess("/usr/bin/gdbus", [
                    "call", "--session", "--dest", "org.freedesktop.Notifications", "--object-path", "/org/vitrine/tests/NotificationsControl",
                    "--method", "org.vitrine.tests.NotificationsControl.Press", label], timeout: 20, environment: bus.environment).stdout
            }
            // The key the server was given: the action's name with (id, serial, action).
            let key = try press("Track")
            let serial = try #require(key.firstMatch(of: /uint32 (\d+)/)?.1, "\(key)")
            #expect(waitFor(server, "/action?") == ["/action?id=order-8&action=track"])
            #expect(notificationAction("order-8 track"))

            // GLib forgets a notification once its server reports an action; the app's action
            // stays open to the bus (org.gtk.Actions, as the gtk backend and the portal use it).
            func activate(_ target: String) throws {
                let call = try runProcess("/usr/bin/gdbus", [
                    "call", "--session", "--dest", appID, "--object-path", "/" + appID.replacing(".", with: "/"),
                    "--method", "org.gtk.Actions.Activate", "vitrine-notification-action", "[<\(target)>]", "{}"],
                    timeout: 20, environment: bus.environment)
                #expect(call.status == 0, "\(call.stderr)")
            }
            // The page went on to its second document, which listens too: it hears nothing.
            #expect(waitFor(server, "/second-ready") == ["/second-ready"])
            try activate("('order-8', uint32 \(serial), 'track')")
            #expect(notificationAction("order-8 track: its document has gone"))
            // Forged: an old showing's serial, an action it never had.
            try activate("('order-8', uint32 \(Int(serial)! + 7), 'track')")
            #expect(notificationAction("order-8 track: the notification was replaced"))
            try activate("('order-8', uint32 \(serial), 'delete-all')")
            #expect(notificationAction("order-8 delete-all: not an action of the notification"))
            #expect(!server.requestedPaths.contains { $0.hasPrefix("/second-action") }, "\(server.requestedPaths)")
            #expect(notificationAction("order-9: withdrawn, its document has gone"))

            app.end()
            let lines = service.stop()
            let notify = lines.filter { $0.hasPrefix("Notify ") }
            #expect(notify.count == 2, "two notifications, shown once the server came: \(lines)")
            #expect(notify.first?.contains("| Order shipped |  | default,,app.vitrine-notification-action(") == true, "\(notify)")
            #expect(notify.first?.hasSuffix(",Later") == true && notify.first?.contains(",Track,") == true, "\(notify)")
            // GLib forgot order-8 when its button was pressed; order-9 (the server's 2) is closed.
            #expect(lines.filter { $0.hasPrefix("Close ") } == ["Close 2"], "\(lines)")
        }
    }
}
