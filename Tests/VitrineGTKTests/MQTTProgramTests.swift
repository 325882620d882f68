import Foundation
import Testing
import VitrineTestSupport

extension WebKitTests {
    /// The `vitrine` program on a real Mosquitto broker (TLS with a CA made here, a password
    /// file), driven with mosquitto_pub and watched with mosquitto_sub: one kiosk run serves
    /// every command, the configuration pushes, a broker restart and, killed, its last will.
    @Suite
    struct MQTTProgramTests {
        @Test func aKioskOnABrokerObeysAnswersTakesPushesAndLeavesItsWill() throws {
            let broker = try MosquittoBroker()
            defer { broker.remove() }
            let server = try LoopbackHTTPServer(pages: [
                "start.html": "<!doctype html><title>start</title>", "second.html": "<!doctype html><title>second</title>"])
            defer { server.stop() }
            let folder = try broker.kioskFolder()
            let remote = broker.remoteSection(deviceID: "lobby-1", caFile: broker.caFile) + "home-assistant = true\nconfig-trial-timeout = 3\n"
            func config(start: URL) -> String { "preset = \"kiosk\"\nstart-url = \"\(start.absoluteString)\"\n\n\(remote)\n" }
            let configPath = folder + "/kiosk.toml"
            try config(start: server.url("start.html")).write(toFile: configPath, atomically: true, encoding: .utf8)

            let messages = folder + "/messages.txt"
            var subscriber = try broker.subscribe(["vitrine/#", "homeassistant/#"], excluding: ["vitrine/lobby-1/screenshot"], to: messages)
            defer { kill(subscriber.processIdentifier, SIGKILL) }

            // A retained command waits on the broker: the kiosk must not run it when it connects.
            try broker.publish("vitrine/lobby-1/cmd/home", "go", retained: true)
            let program = try MosquittoBroker.launchKiosk(config: configPath)
            defer { program.kill() }

            func lines(_ topic: String) -> [String] { MosquittoBroker.payloads(on: topic, in: messages) }
            func json(_ text: String) -> [String: Any] { MosquittoBroker.jsonObject(text) }
            @discardableResult
            func waitFor(_ what: String, _ condition: () -> Bool) -> Bool {
                // What the subscriber writes (and the screenshot) land in the kiosk's folder.
                if FactWait(watching: [messages]).wait(timeout: 20, until: condition) { return true }
                Issue.record("timed out waiting for \(what)")
                return false
            }
            let base = "vitrine/lobby-1"
            func state() -> [String: Any] { lines(base + "/state").last.map(json) ?? [:] }
            /// Sends a command and returns its reply (the next one on its reply topic).
            func command(_ name: String, _ payload: String = "", reply replyName: String? = nil) throws -> [String: Any] {
                let topic = "\(base)/reply/\(replyName ?? name)"
                let before = lines(topic).count
                try broker.publish("\(base)/cmd/\(name)", payload)
                waitFor("the reply to \(name)") { lines(topic).count > before }
                return lines(topic).dropFirst(before).first.map(json) ?? [:]
            }

            // State (retained, online) once the start page has loaded.
            waitFor("the state with the start page") { state()["url"] as? String == server.url("start.html").absoluteString }
            #expect(state()["online"] as? Bool == true)
            waitFor("the retained command refused") { lines(base + "/reply/home").count == 1 }
            #expect((json(lines(base + "/reply/home").first ?? "")["error"] as? String)?.hasPrefix("retained commands are ignored") == true)
            #expect(state()["display"] as? String == "on")
            waitFor("the page's title in the state") { state()["title"] as? String == "start" }
            #expect(state()["version"] as? String != nil)

            // Home Assistant discovery: nine entities of one device.
            waitFor("discovery") { lines("homeassistant/image/lobby-1/screenshot/config").count == 1 }
            let discovery = ((try? String(contentsOfFile: messages, encoding: .utf8)) ?? "").split(separator: "\n").filter { $0.hasPrefix("homeassistant/") }
            #expect(discovery.count == 9)
            let reload = json(lines("homeassistant/button/lobby-1/reload/config").first ?? "")
            #expect(reload["command_topic"] as? String == "\(base)/cmd/reload")
            #expect(reload["availability_topic"] as? String == "\(base)/state")
            #expect((reload["device"] as? [String: Any])?["identifiers"] as? [String] == ["vitrine_lobby-1"])

            // Every command, answered.
            #expect(try command("navigate", server.url("second.html").absoluteString)["ok"] as? Bool == true)
            waitFor("the state with the second page") { state()["url"] as? String == server.url("second.html").absoluteString }
            let refused = try command("navigate", server.url("second.html", host: "localhost").absoluteString)
            #expect(refused["ok"] as? Bool == false)
            #expect((refused["error"] as? String)?.contains("origin-allowlist") == true)
            // A bare origin, which WebKit asks about as `…/`: answered from its decision, not a timeout.
            let bare = try command("navigate", "http://localhost:\(server.port)")
            #expect((bare["error"] as? String)?.contains("refused by the navigation chain (origin-allowlist)") == true, "\(bare)")
            #expect((try command("navigate", "not a url")["error"] as? String)?.contains("absolute URL") == true)
            #expect((try command("navigate", String(repeating: "x", count: 9000))["error"] as? String)?.contains("at most 8192") == true)
            #expect(try command("reload")["ok"] as? Bool == true)
            #expect(try command("home")["ok"] as? Bool == true)
            waitFor("home") { state()["url"] as? String == server.url("start.html").absoluteString }
            #expect(try command("display", "off")["ok"] as? Bool == true)
            waitFor("the display off in the state") { state()["display"] as? String == "off" }
            #expect(try command("display", "on")["ok"] as? Bool == true)
            waitFor("the display on in the state") { state()["display"] as? String == "on" }
            #expect((try command("display", "dim")["error"] as? String)?.contains(#""on" or "off""#) == true)
            #expect(try command("next")["ok"] as? Bool == true)
            #expect((try command("explode", "", reply: "unknown")["error"] as? String)?.contains("unknown command") == true)
            let png = folder + "/shot.png"
            let shotSubscriber = try broker.subscribe([base + "/screenshot"], to: png, raw: true, count: 1)
            defer { kill(shotSubscriber.processIdentifier, SIGKILL) }
            #expect(try command("screenshot")["ok"] as? Bool == true)
            waitFor("the PNG") { (FileManager.default.contents(atPath: png)?.count ?? 0) > 1000 }
            #expect(FileManager.default.contents(atPath: png)?.prefix(4) == Data([0x89, 0x50, 0x4E, 0x47]))

            // Configuration pushes: a bad one (nothing changes), one that changes [remote.mqtt]
            // (refused), a good one (applied and kept), one whose page never loads (rolled back).
            let original = try String(contentsOfFile: configPath, encoding: .utf8)
            let bad = try command("config", "preset = \"kiosk\"\nstart-url = 12\n\n\(remote)\n")
            #expect(bad["ok"] as? Bool == false)
            #expect((bad["error"] as? String)?.contains("kiosk.toml:2:13: start-url must be") == true)
            let renamed = remote.replacingOccurrences(of: "device-id = \"lobby-1\"", with: "device-id = \"lobby-9\"")
            let moved = try command("config", "preset = \"kiosk\"\nstart-url = \"\(server.url("second.html").absoluteString)\"\n\n\(renamed)\n")
            #expect((moved["error"] as? String)?.contains("[remote.mqtt]") == true)
            #expect(try String(contentsOfFile: configPath, encoding: .utf8) == original)

            let good = config(start: server.url("second.html"))
            #expect(try command("config", good)["ok"] as? Bool == true)
            #expect(try String(contentsOfFile: configPath, encoding: .utf8) == good)
            waitFor("the pushed start page") { state()["url"] as? String == server.url("second.html").absoluteString }

            let dead = URL(string: "http://127.0.0.1:\(try MosquittoBroker.freePort())/never.html")!
            let rolledBack = try command("config", config(start: dead))
            #expect(rolledBack["ok"] as? Bool == false)
            #expect((rolledBack["error"] as? String)?.contains("rolled back: the new start page \(dead.absoluteString) did not load within 3") == true)
            #expect(try String(contentsOfFile: configPath, encoding: .utf8) == good)
            #expect(lines(base + "/events").contains {
                json($0)["action"] as? String == "config-push" && (json($0)["detail"] as? String)?.hasPrefix("rolled back: ") == true
            })
            waitFor("the page of the kept configuration") {
                lines(base + "/events").contains { json($0)["event"] as? String == "finished" && json($0)["url"] as? String == server.url("second.html").absoluteString }
                    && state()["url"] as? String == server.url("second.html").absoluteString
            }

            // The broker restarts (retained messages gone): the kiosk reconnects and says it is online again.
            broker.stop()
            kill(subscriber.processIdentifier, SIGKILL)
            try broker.start()
            try FileManager.default.removeItem(atPath: messages)
            subscriber = try broker.subscribe(["vitrine/#"], excluding: ["vitrine/lobby-1/screenshot"], to: messages)
            waitFor("the state after the broker restart") { state()["online"] as? Bool == true }
            #expect(try command("reload")["ok"] as? Bool == true)

            // Killed, the kiosk leaves its last will.
            program.kill()
            waitFor("the last will") { state()["online"] as? Bool == false }
            #expect(state().count == 1)
        }
    }
}

extension WebKitTests.MQTTProgramTests {
    /// A broker whose certificate the configured CAs do not vouch for is never trusted:
    /// the TLS handshake fails (the broker logs it) and nothing is published.
    @Test func aBrokerTheConfiguredCAsDoNotVouchForIsRefused() throws {
        let broker = try MosquittoBroker()
        defer { broker.remove() }
        let folder = try broker.kioskFolder()
        let other = try runProcess("/usr/bin/openssl", [
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=Another CA",
            "-keyout", folder + "/other.key", "-out", folder + "/other.pem"])
        #expect(other.status == 0)
        let configPath = folder + "/kiosk.toml"
        try ("preset = \"kiosk\"\nstart-url = \"about:blank\"\n" + broker.remoteSection(deviceID: "stranger", caFile: "other.pem"))
            .write(toFile: configPath, atomically: true, encoding: .utf8)
        let brokerLog = FactWait(watching: [broker.logFile])
        let program = try MosquittoBroker.launchKiosk(config: configPath)
        defer { program.kill() }

        let refused = brokerLog.wait(timeout: 20) { broker.log.contains("unknown ca") || broker.log.contains("alert bad certificate") }
        #expect(refused, "the broker log: \(broker.log)")
        #expect(!broker.log.contains("New client connected"), "a client connected: \(broker.log)")
        // Nothing under its topics: a subscriber gets what is retained first, then our marker.
        let seen = folder + "/seen.txt"
        let subscriber = try broker.subscribe(["vitrine/stranger/#"], to: seen)
        defer { kill(subscriber.processIdentifier, SIGKILL) }
        func received() -> String { (try? String(contentsOfFile: seen, encoding: .utf8)) ?? "" }
        // Retained, so the subscriber gets it whenever its subscription is in place.
        let written = FactWait(watching: [seen])
        try broker.publish("vitrine/stranger/marker", "marker", retained: true)
        written.wait(timeout: 20) { received().contains("marker") }
        #expect(received().split(separator: "\n").allSatisfy { $0.hasPrefix("vitrine/stranger/marker ") } && received().contains("marker"))
    }
}
