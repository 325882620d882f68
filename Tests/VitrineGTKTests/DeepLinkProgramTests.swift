import Foundation
import Testing
import Vitrine
import VitrineTestSupport

extension WebKitTests {
    /// `[app] url-schemes` as the desktop uses it: the app's desktop entry in a temporary
    /// `XDG_DATA_HOME` (its MIME cache made by update-desktop-database), `xdg-open
    /// myapp://…` starting the app with the link, then handing the next one to the running
    /// app, whose page hears each; a hostile link handed over is refused.
    @Suite
    struct DeepLinkProgramTests {
        static let appID = "org.example.Linked"
        /// Goes to done.html?<link> when it hears a deep link (done.html listens the same way).
        static let page = """
            <!doctype html><title>linked</title><script>
            vitrine.app.on('deep-link', (link) => { location.href = 'done.html?' + encodeURIComponent(link.url); });
            </script>
            """

        /// The links told to the page, in order (the container's `deep-link` events).
        private func heard(_ log: String) -> [String] {
            eventDetails("deep-link", in: log).compactMap { detail in
                detail.hasSuffix(" to 1 page(s)") ? String(detail.dropLast(" to 1 page(s)".count)) : nil
            }
        }

        /// The links the page acted on (its navigations to done.html?<link>), each once.
        private func followed(_ log: String) -> Set<String> {
            Set(eventLines(in: log).compactMap { $0["url"] }.filter { $0.hasPrefix("app://app/done.html?") }
                .map { String($0.dropFirst("app://app/done.html?".count)).removingPercentEncoding ?? $0 })
        }

        @Test func xdgOpenStartsTheAppWithTheLinkThenHandsTheNextToIt() throws {
            let bus = try PrivateSessionBus()
            defer { bus.stop() }
            let folder = try ConfigFolder()
            try folder.write("web/index.html", Self.page)
            try folder.write("web/done.html", Self.page)
            let config = try folder.write("app.toml", """
                preset = "app"
                app-id = "\(Self.appID)"
                app-dir = "\(folder.path)/web"
                title = "Linked"
                [app]
                url-schemes = ["myapp"]
                [capabilities]
                "app://app" = ["app"]
                """)
            let log = folder.path + "/events.jsonl"
            let vitrine = try BuiltProducts.path("vitrine")
            // The desktop entry as an app ships it, in the user's applications folder.
            let entry = DesktopEntry(name: "Linked", applicationID: Self.appID, command: [vitrine, "--config", config, "--events", log],
                                     urlSchemes: ["myapp"])
            let applications = try folder.makeFolder("data/applications")
            try folder.write("data/applications/\(Self.appID).desktop", try entry.text())
            let update = try runProcess("/usr/bin/update-desktop-database", [applications], timeout: 30)
            #expect(update.status == 0, "\(update.stderr)")
            #expect(FileSystem.contents(of: applications + "/mimeinfo.cache")?.contains("x-scheme-handler/myapp=\(Self.appID).desktop;") == true)

            var environment = bus.environment
            environment["XDG_DATA_HOME"] = folder.path + "/data"
            environment["XDG_CONFIG_HOME"] = try folder.makeFolder("config")
            environment["XDG_DATA_DIRS"] = "/usr/share"
            // xdg-open's generic way, as on a desktop it does not know: the MIME cache.
            for name in ["XDG_CURRENT_DESKTOP", "DESKTOP_SESSION", "GNOME_DESKTOP_SESSION_ID", "KDE_FULL_SESSION"] { environment[name] = nil }
            let query = try runProcess("/usr/bin/xdg-mime", ["query", "default", "x-scheme-handler/myapp"], timeout: 30, environment: environment)
            #expect(query.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "\(Self.appID).desktop", "\(query.stdout) \(query.stderr)")

            // Not running: xdg-open starts the app, whose page hears the link once loaded.
            let opener = try ProgramRun(["myapp://open?id=3"], environment: environment, executable: "/usr/bin/xdg-open", watching: [log])
            defer { opener.kill() }
            #expect(opener.wait { heard(log) == ["myapp://open?id=3"] }, "heard \(heard(log)); \(opener.standardError)")

            // Running: the next link goes to the running app (the second start hands it over and ends).
            let second = try runProcess("/usr/bin/xdg-open", ["myapp://cart/7?from=mail"], timeout: 60, environment: environment)
            #expect(second.status == 0, "\(second.stderr)")
            #expect(opener.wait { heard(log).count == 2 }, "heard \(heard(log))")
            #expect(heard(log) == ["myapp://open?id=3", "myapp://cart/7?from=mail"])
            #expect(opener.wait { followed(log) == ["myapp://open?id=3", "myapp://cart/7?from=mail"] }, "followed \(followed(log))")

            // A hostile link handed over (too long) is refused, and the page hears nothing of it.
            let long = "myapp://x?" + String(repeating: "a", count: DeepLink.maxLength)
            let hostile = try runProcess(vitrine, ["--config", config, long], timeout: 60, environment: environment)
            #expect(hostile.status == 0 && hostile.stderr.contains("handed over"), "\(hostile.stderr)")
            #expect(opener.wait { eventDetails("deep-link-refused", in: log).contains { $0.contains("longer than") } },
                    "\(eventDetails("deep-link-refused", in: log))")
            #expect(heard(log).count == 2)

            let quit = try runProcess(vitrine, ["ctl", "--app-id", Self.appID, "quit"], timeout: 20, environment: environment)
            #expect(quit.status == 0, "\(quit.stderr)")
            #expect(opener.waitForExit(), "xdg-open ends with the app")
        }
    }
}
