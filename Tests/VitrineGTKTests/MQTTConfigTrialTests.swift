import Foundation
import Testing
import VitrineTestSupport

extension WebKitTests {
    /// A pushed configuration's trial judges its start page by the HTTP status it answers:
    /// a real loopback server's 404 and 503 roll the push back (the reply names the status),
    /// its 200 keeps it.
    @Suite
    struct MQTTConfigTrialTests {
        @Test func aPushWhoseStartPageAnswers404Or503RollsBackAnd200IsKept() throws {
            let broker = try MosquittoBroker()
            defer { broker.remove() }
            // MAINTENANCE makes the server answer /maintenance/… with 503; missing.html is a 404.
            let server = try LoopbackHTTPServer(pages: [
                "start.html": "<!doctype html><title>start</title>", "next.html": "<!doctype html><title>next</title>",
                "MAINTENANCE": ""])
            defer { server.stop() }
            let folder = try broker.kioskFolder()
            // Long enough for a page to load on a busy machine; a 404 must not wait for it.
            let remote = broker.remoteSection(deviceID: "trial-1", caFile: broker.caFile) + "config-trial-timeout = 8\n"
            func config(start: URL) -> String { "preset = \"kiosk\"\nstart-url = \"\(start.absoluteString)\"\n\n\(remote)\n" }
            let configPath = folder + "/kiosk.toml"
            let original = config(start: server.url("start.html"))
            try original.write(toFile: configPath, atomically: true, encoding: .utf8)
            let messages = folder + "/messages.txt"
            let subscriber = try broker.subscribe(["vitrine/#"], excluding: ["vitrine/trial-1/screenshot"], to: messages)
            defer { kill(subscriber.processIdentifier, SIGKILL) }
            let program = try MosquittoBroker.launchKiosk(config: configPath)
            defer { program.kill() }

            let base = "vitrine/trial-1"
            func lines(_ topic: String) -> [String] { MosquittoBroker.payloads(on: topic, in: messages) }
            func json(_ text: String) -> [String: Any] { MosquittoBroker.jsonObject(text) }
            @discardableResult
            func waitFor(_ what: String, _ condition: () -> Bool) -> Bool {
                if FactWait(watching: [messages]).wait(timeout: 30, until: condition) { return true }
                Issue.record("timed out waiting for \(what)")
                return false
            }
            func state() -> [String: Any] { lines(base + "/state").last.map(json) ?? [:] }
            func push(_ start: URL) -> [String: Any] {
                let topic = base + "/reply/config"
                let before = lines(topic).count
                do { try broker.publish(base + "/cmd/config", config(start: start)) } catch { Issue.record("\(error)") }
                waitFor("the reply to the push of \(start)") { lines(topic).count > before }
                return lines(topic).dropFirst(before).first.map(json) ?? [:]
            }
            waitFor("the start page") { state()["url"] as? String == server.url("start.html").absoluteString }

            // A 404 page loads, and is no start page: rolled back at once, the status named.
            let missing = server.url("missing.html")
            let notFound = push(missing)
            #expect(notFound["ok"] as? Bool == false)
            let notFoundError = notFound["error"] as? String ?? ""
            #expect(notFoundError.hasPrefix("rolled back: the new start page answered HTTP 404"), "\(notFound)")
            #expect(try String(contentsOfFile: configPath, encoding: .utf8) == original)
            // The events log's `finished` line says the status.
            #expect(lines(base + "/events").contains {
                json($0)["event"] as? String == "finished" && json($0)["status"] as? Int == 404
            })

            // The app's own server answers 503: retried until the trial's time is up, then rolled back naming it.
            let unavailable = push(server.url("maintenance/start.html"))
            #expect(unavailable["ok"] as? Bool == false)
            #expect((unavailable["error"] as? String)?.contains("answered HTTP 503 and did not load within 8") == true, "\(unavailable)")
            #expect(try String(contentsOfFile: configPath, encoding: .utf8) == original)
            waitFor("the kept configuration's page again") { state()["url"] as? String == server.url("start.html").absoluteString }

            // A 200 is kept.
            let good = config(start: server.url("next.html"))
            let kept = push(server.url("next.html"))
            #expect(kept["ok"] as? Bool == true, "\(kept)")
            #expect(try String(contentsOfFile: configPath, encoding: .utf8) == good)
            #expect(lines(base + "/events").contains {
                json($0)["event"] as? String == "finished" && json($0)["url"] as? String == server.url("next.html").absoluteString
                    && json($0)["status"] as? Int == 200
            })
        }
    }
}
