import CWebKitGTK
import Foundation
import Testing
import VitrineTestSupport

extension WebKitTests {
    /// `vitrine --automation` driven through Debian's WebKitWebDriver by plain W3C WebDriver
    /// requests, as a Selenium or WebdriverIO client sends them (docs/apps/testing.md): the
    /// session's views keep the app's chain, strategies and origin rules; a kiosk stays a
    /// kiosk; `[security] allow-automation = false` refuses; deleting the session ends the program.
    @Suite
    struct WebDriverTests {
        static let page = """
            <!doctype html><title>driven</title>
            <p id="greeting">Hello from the page</p>
            """

        /// The capabilities a client sends for the built `vitrine` with `arguments`; a
        /// navigation the app cancels is waited for `pageLoad` milliseconds (WebDriver's 300 s
        /// by default: the driver does not hear of the cancellation).
        private func capabilities(_ arguments: [String], pageLoad: Int = 300_000) throws -> [String: Any] {
            ["browserName": "vitrine", "timeouts": ["pageLoad": pageLoad],
             "webkitgtk:browserOptions": ["binary": try BuiltProducts.path("vitrine"), "args": ["--automation"] + arguments]]
        }

        /// The pids of running programs whose command line contains `marker`.
        private func programs(containing marker: String) -> [Int32] {
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
            return entries.compactMap(Int32.init).filter { pid in
                guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return false }
                return String(decoding: data, as: UTF8.self).contains(marker)
            }
        }

        /// Ends what a failed test leaves behind: the program the driver started, found by
        /// `marker` (its events file), which outlives a driver killed mid-command.
        private func endPrograms(containing marker: String) {
            for pid in programs(containing: marker) { kill(pid, SIGTERM) }
        }

        private func environment(_ folder: borrowing ConfigFolder) -> [String: String] {
            ProgramRun.environment(dataHome: folder.path + "/data").merging(["NO_AT_BRIDGE": "1"]) { $1 }
        }

        @Test(.timeLimit(.minutes(3)))
        func aClientDrivesTheAppThroughTheAppsOwnRules() throws {
            let server = try LoopbackHTTPServer(pages: ["index.html": Self.page, "next.html": Self.page.replacingOccurrences(of: "driven", with: "next")])
            defer { server.stop() }
            let folder = try ConfigFolder()
            let events = folder.path + "/events.jsonl"
            let driver = try WebKitWebDriver(environment: environment(folder))
            let session = try driver.newSession(capabilities: capabilities(["--events", events, server.url("index.html").absoluteString])).get()

            #expect(try driver.request("POST", "/session/\(session)/url", ["url": server.url("next.html").absoluteString]).status == 200)
            #expect(try driver.request("GET", "/session/\(session)/url").value as? String == server.url("next.html").absoluteString)
            #expect(try driver.request("GET", "/session/\(session)/title").value as? String == "next")
            let found = try driver.request("POST", "/session/\(session)/element", ["using": "css selector", "value": "#greeting"])
            let element = try #require((found.value as? [String: Any])?[webDriverElementKey] as? String, "\(found)")
            #expect(try driver.request("GET", "/session/\(session)/element/\(element)/text").value as? String == "Hello from the page")
            #expect(try driver.request("POST", "/session/\(session)/execute/sync",
                                       ["script": "return document.title + ' ' + arguments[0]", "args": [7]]).value as? String == "next 7")
            // The app's strategies answer the driven page, through the SDK as in any window.
            let pinged = try driver.request("POST", "/session/\(session)/execute/async", ["args": [], "script": """
                const done = arguments[arguments.length - 1];
                vitrine.invoke('ping', {n: 41}).then(r => done(JSON.stringify(r)), e => done('refused: ' + e.message));
                """])
            #expect(pinged.value as? String == #"{"n":41}"#, "\(pinged)")
            // The driver's navigation went through the app's chain, logged as every decision is.
            let log = (try? String(contentsOfFile: events, encoding: .utf8)) ?? ""
            #expect(eventLines(in: events).contains { $0["type"] == "navigation" && $0["url"] == server.url("next.html").absoluteString && $0["policy"] == "allow" },
                    "\(log)")

            #expect(try driver.request("DELETE", "/session/\(session)").status == 200)
            let deadline = Date().addingTimeInterval(20)
            while !programs(containing: events).isEmpty && Date() < deadline { usleep(100_000) }
            #expect(programs(containing: events).isEmpty, "the program ends with its session")
        }

        /// Take Screenshot on Xvfb's software renderer (llvmpipe: every CI machine without a
        /// GPU), where Vitrine turns compositing off outside a session and WebKitGTK then never
        /// answers it (see `RenderingChoice`): the session keeps compositing on, and the PNG
        /// comes back, decodes, is the view's size and shows the page. The request is bounded
        /// (it answers in under a tenth of a second) so that a hang fails in seconds, not at
        /// the client's 90.
        @Test(.timeLimit(.minutes(3)))
        func aScreenshotIsAnsweredOnTheSoftwareRenderer() throws {
            let colour: (red: Int, green: Int, blue: Int) = (32, 160, 96)
            let server = try LoopbackHTTPServer(pages: ["index.html": """
                <!doctype html><title>coloured</title>
                <body style="margin: 0; background: rgb(\(colour.red), \(colour.green), \(colour.blue))"></body>
                """])
            defer { server.stop() }
            let folder = try ConfigFolder()
            let events = folder.path + "/events.jsonl"
            let driver = try WebKitWebDriver(environment: environment(folder))
            let session = try driver.newSession(capabilities: capabilities(["--events", events, server.url("index.html").absoluteString])).get()
            defer {
                _ = try? driver.request("DELETE", "/session/\(session)", timeout: 10)
                endPrograms(containing: events)
            }
            #expect(try driver.request("GET", "/session/\(session)/title").value as? String == "coloured")

            let renderer = eventLines(in: events).first { $0["type"] == "renderer" }
            #expect(renderer?["renderer"]?.contains("EGL_MESA_device_software") == true, "the software path: \(String(describing: renderer))")
            #expect(renderer?["policy"] == "auto" && renderer?["reason"] == "automation", "\(String(describing: renderer))")

            let asked = Date()
            let shot = try driver.request("GET", "/session/\(session)/screenshot", timeout: 15)
            let seconds = Date().timeIntervalSince(asked)
            try #require(shot.status == 200, "Take Screenshot answered within 15 s: status \(shot.status) after \(seconds) s")
            let png = (shot.value as? String).flatMap { Data(base64Encoded: $0) } ?? Data()
            let file = folder.url.appendingPathComponent("screenshot.png")
            try png.write(to: file)
            var error: UnsafeMutablePointer<GError>?
            let pixbuf = try #require(gdk_pixbuf_new_from_file(file.path, &error), "a PNG that decodes: \(png.count) bytes")
            defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
            let width = Int(gdk_pixbuf_get_width(pixbuf)), height = Int(gdk_pixbuf_get_height(pixbuf))
            let page = try driver.request("POST", "/session/\(session)/execute/sync",
                                          ["script": "return [innerWidth, innerHeight]", "args": []]).value as? [Any]
            let viewport = (page ?? []).compactMap { $0 as? Int }
            #expect(viewport == [width, height], "the view's size: \(width)x\(height), the page says \(viewport)")
            #expect(width >= 200 && height >= 200, "\(width)x\(height)")

            // The page's colour at the centre and near each corner (a blank, black or stale
            // capture has another).
            let stride = Int(gdk_pixbuf_get_rowstride(pixbuf)), channels = Int(gdk_pixbuf_get_n_channels(pixbuf))
            let pixels = gdk_pixbuf_get_pixels(pixbuf)!
            for (x, y) in [(width / 2, height / 2), (10, 10), (width - 10, 10), (10, height - 10), (width - 10, height - 10)] {
                let p = pixels + y * stride + x * channels
                let seen = (Int(p[0]), Int(p[1]), Int(p[2]))
                #expect(abs(seen.0 - colour.red) <= 3 && abs(seen.1 - colour.green) <= 3 && abs(seen.2 - colour.blue) <= 3,
                        "pixel (\(x), \(y)) is \(seen)")
            }
        }

        /// A kiosk that allows automation is still a kiosk: the driver's navigation to another
        /// origin is refused by the chain, and the page stays.
        @Test(.timeLimit(.minutes(3)))
        func aKioskStaysAKioskUnderAutomation() throws {
            let server = try LoopbackHTTPServer(pages: ["index.html": Self.page])
            defer { server.stop() }
            let foreign = try LoopbackHTTPServer(pages: ["index.html": "<!doctype html><title>foreign</title>"])
            defer { foreign.stop() }
            let folder = try ConfigFolder()
            let events = folder.path + "/events.jsonl"
            let config = try folder.write("kiosk.toml", """
                preset = "kiosk"
                start-url = "\(server.url("index.html").absoluteString)"
                [window]
                fullscreen = false
                [security]
                allow-automation = true
                """)
            let driver = try WebKitWebDriver(environment: environment(folder))
            let session = try driver.newSession(capabilities: capabilities(["--config", config, "--events", events], pageLoad: 3_000)).get()
            let start = try driver.request("GET", "/session/\(session)/url").value as? String
            #expect(start == server.url("index.html").absoluteString)

            let refused = foreign.url("index.html", host: "localhost").absoluteString
            let navigated = try driver.request("POST", "/session/\(session)/url", ["url": refused], timeout: 30)
            #expect(navigated.status != 200, "the refused navigation never loads: \(navigated)")
            #expect(try driver.request("GET", "/session/\(session)/url").value as? String == start)
            #expect(try driver.request("GET", "/session/\(session)/title").value as? String == "driven")
            let log = (try? String(contentsOfFile: events, encoding: .utf8)) ?? ""
            #expect(eventLines(in: events).contains { $0["type"] == "navigation" && $0["url"] == refused && $0["policy"] == "cancel" }, "\(log)")
            #expect(!foreign.requestedPaths.contains { $0.hasPrefix("/index.html") }, "the foreign page was never fetched")
            _ = try driver.request("DELETE", "/session/\(session)")
        }

        /// `allow-automation = false` (the kiosk preset's default): `--automation` exits at
        /// once with the reason, before any window; nothing for a driver to attach to.
        @Test func aConfigurationThatRefusesAutomationExitsWithTheReason() throws {
            let folder = try ConfigFolder()
            let kiosk = try folder.write("kiosk.toml", "preset = \"kiosk\"\nstart-url = \"http://127.0.0.1:9/\"\n")
            let refused = try runProcess(try BuiltProducts.path("vitrine"), ["--automation", "--config", kiosk], timeout: 30,
                                         environment: environment(folder))
            #expect(refused.status == 1)
            #expect(refused.stderr.contains("automation is refused by this configuration ([security] allow-automation = false"), "\(refused.stderr)")

            let app = try folder.write("app.toml", "preset = \"app\"\nstart-url = \"http://127.0.0.1:9/\"\n[security]\nallow-automation = false\n")
            let alsoRefused = try runProcess(try BuiltProducts.path("vitrine"), ["--automation", "--config", app], timeout: 30,
                                             environment: environment(folder))
            #expect(alsoRefused.status == 1, "\(alsoRefused.stderr)")
        }
    }
}
