import Foundation
import Testing
import VitrineTestSupport

extension WebKitTests {
    /// `[[displays]]` on real monitors that come and go: the program under sway's headless
    /// backend (`SwayHeadless`), through GDK's Wayland backend; and such a kiosk on a real
    /// Mosquitto broker.
    @Suite
    struct DisplaysProgramTests {
        /// A kiosk with page b on monitor 1 (the first table) and page a on monitor 0.
        static func twoDisplays(appDirectory: String) -> String {
            """
            preset = "kiosk"
            app-dir = "\(appDirectory)"
            [[displays]]
            monitor = 1
            start-url = "app://app/b.html"
            [[displays]]
            monitor = 0
            start-url = "app://app/a.html"
            """
        }

        @Test func aMonitorThatAppearsGetsItsWindowWithItsOwnPage() throws {
            let folder = try ConfigFolder()
            _ = try folder.write("www/a.html", "<!doctype html><title>A</title><body style='background:#a00'>A")
            _ = try folder.write("www/b.html", "<!doctype html><title>B</title><body style='background:#00a'>B")
            let config = try folder.write("displays.toml", Self.twoDisplays(appDirectory: "www"))
            let compositor = try SwayHeadless(in: folder)
            defer { compositor.stop() }
            let log = folder.url.appendingPathComponent("events.jsonl").path
            let program = try ProgramRun(["--config", config, "--new-instance", "--events", log], environment: compositor.programEnvironment)
            defer { program.end() }
            func details(_ action: String) -> [String] { eventDetails(action, in: log) }

            // One output: the display that names monitor 0 gets its window; monitor 1's waits.
            program.wait { !details("display-window-shown").isEmpty }
            #expect(details("display-window-shown") == ["1 on monitor 0"])
            #expect(details("display-window-opened").count == 1)
            #expect(details("display-window-opened").first?.hasSuffix(" app://app/a.html") == true)

            // A second output appears: its window opens there, with its own page, no restart.
            try compositor.createOutput()
            program.wait { details("display-window-shown").count == 2 }
            #expect(details("display-window-shown") == ["1 on monitor 0", "0 on monitor 1"])
            let opened = details("display-window-opened")
            #expect(opened.count == 2 && opened.last?.hasPrefix("0 1") == true && opened.last?.hasSuffix(" app://app/b.html") == true,
                    "\(opened)")
            #expect(details("display-window-closed").isEmpty)

            program.end()
            #expect(program.process.terminationReason == .exit && program.process.terminationStatus == 0)
        }

        /// A two-monitor kiosk on a broker: the state's address is the first display's (and
        /// follows it when another window becomes the first), every window's events go out,
        /// `reload` and `home` act on every window, `navigate` on the first one, and a pushed
        /// configuration is refused with the reason.
        @Test func aKioskOfSeveralDisplaysIsDrivenFromTheBroker() throws {
            let broker = try MosquittoBroker()
            defer { broker.remove() }
            let folder = try ConfigFolder()
            let kiosk = try broker.kioskFolder()
            for page in ["a", "b", "c", "alert"] {
                _ = try folder.write("www/\(page).html", "<!doctype html><title>\(page.uppercased())</title>\(page)")
            }
            let config = kiosk + "/displays.toml"
            try (Self.twoDisplays(appDirectory: folder.path + "/www") + "\n\n" + broker.remoteSection(deviceID: "wall", caFile: broker.caFile))
                .write(toFile: config, atomically: true, encoding: .utf8)
            let messages = kiosk + "/messages.txt"
            let subscriber = try broker.subscribe(["vitrine/wall/#"], to: messages)
            defer { kill(subscriber.processIdentifier, SIGKILL) }
            let compositor = try SwayHeadless(in: folder)
            defer { compositor.stop() }
            let log = kiosk + "/events.jsonl"
            let program = try ProgramRun(["--config", config, "--new-instance", "--events", log], environment: compositor.programEnvironment)
            defer { program.end() }

            func lines(_ topic: String) -> [String] {
                ((try? String(contentsOfFile: messages, encoding: .utf8)) ?? "").split(separator: "\n")
                    .filter { $0.hasPrefix("vitrine/wall/\(topic) ") }.map { String($0.dropFirst("vitrine/wall/\(topic) ".count)) }
            }
            func state() -> [String: Any] {
                lines("state").last.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] } ?? [:]
            }
            func loads(_ event: String, _ page: String) -> Int {
                eventLines(in: log).filter { $0["type"] == "load" && $0["event"] == event && $0["url"] == "app://app/\(page).html" }.count
            }
            func command(_ name: String, _ payload: String = "") throws -> [String: Any] {
                let before = lines("reply/\(name)").count
                try broker.publish("vitrine/wall/cmd/\(name)", payload)
                #expect(program.wait { lines("reply/\(name)").count > before }, "no reply to \(name)")
                return lines("reply/\(name)").dropFirst(before).first
                    .flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] } ?? [:]
            }

            // One monitor: display 1's window (a) is the first open; then display 0's (b) is.
            #expect(program.wait { state()["url"] as? String == "app://app/a.html" }, "\(state())")
            #expect(state()["online"] as? Bool == true)
            try compositor.createOutput()
            #expect(program.wait { state()["url"] as? String == "app://app/b.html" && state()["title"] as? String == "B" }, "\(state())")
            #expect(program.wait { loads("finished", "a") == 1 && loads("finished", "b") == 1 })

            // Kiosk-wide commands reach both windows; their events all go out on `events`.
            #expect(try command("reload")["ok"] as? Bool == true)
            #expect(program.wait { loads("finished", "a") == 2 && loads("finished", "b") == 2 }, "\(eventLines(in: log).suffix(6))")
            #expect(program.wait { lines("events").filter { $0.contains("a.html") }.count >= 4 }, "the second window's events")

            // navigate: the first display only; home: each window back to its own page.
            #expect(try command("navigate", "app://app/c.html")["ok"] as? Bool == true)
            #expect(program.wait { state()["url"] as? String == "app://app/c.html" })
            #expect(loads("started", "c") == 1 && loads("finished", "a") == 2)
            #expect(try command("home")["ok"] as? Bool == true)
            #expect(program.wait { loads("finished", "a") == 3 && loads("finished", "b") == 3 })
            #expect(program.wait { state()["url"] as? String == "app://app/b.html" })

            // An alert takes over both displays at once, is in the state, and each window goes
            // back to its own page by itself when it ends.
            #expect(try command("alert", #"{"url":"app://app/alert.html","seconds":2}"#)["ok"] as? Bool == true)
            #expect(program.wait { loads("finished", "alert") == 2 }, "\(eventLines(in: log).suffix(6))")
            #expect(program.wait { (state()["alert"] as? [String: Any])?["url"] as? String == "app://app/alert.html" }, "\(state())")
            #expect(program.wait { loads("finished", "a") == 4 && loads("finished", "b") == 4 }, "\(eventLines(in: log).suffix(6))")
            #expect(program.wait { state()["alert"] is NSNull && state()["url"] as? String == "app://app/b.html" }, "\(state())")

            // A push would have to be tried on every monitor at once: refused, file unchanged.
            let before = try String(contentsOfFile: config, encoding: .utf8)
            let pushed = try command("config", before.replacingOccurrences(of: "b.html", with: "c.html"))
            #expect(pushed["ok"] as? Bool == false)
            #expect((pushed["error"] as? String)?.contains("[[displays]]") == true, "\(pushed)")
            #expect(try String(contentsOfFile: config, encoding: .utf8) == before)
        }
    }
}
