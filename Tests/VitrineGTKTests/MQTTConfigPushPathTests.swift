import Foundation
import Testing
import VitrineTestSupport

extension WebKitTests.MQTTProgramTests {
    /// Whoever may publish `cmd/config` may reconfigure the kiosk but not read its files: a
    /// push that keeps `[remote.mqtt]` but adds credentials whose password file is the
    /// kiosk's own broker password (or its SSH key) is refused at the key's line and column;
    /// the file on disk stays as it was, the container is not replaced, and the would-be
    /// receiver hears nothing. A push keeping every path is still applied.
    @Test func aPushNamingTheKiosksOwnFilesIsRefusedAndChangesNothing() throws {
        let broker = try MosquittoBroker()
        defer { broker.remove() }
        let server = try LoopbackHTTPServer(pages: [
            "start.html": "<!doctype html><title>start</title>", "steal.html": "<!doctype html><title>steal</title>",
            "second.html": "<!doctype html><title>second</title>"])
        defer { server.stop() }
        let folder = try broker.kioskFolder()
        let remote = broker.remoteSection(deviceID: "lobby-2", caFile: broker.caFile) + "config-trial-timeout = 5\n"
        func config(start: URL) -> String { "preset = \"kiosk\"\nstart-url = \"\(start.absoluteString)\"\n\n\(remote)\n" }
        let configPath = folder + "/kiosk.toml"
        try config(start: server.url("start.html")).write(toFile: configPath, atomically: true, encoding: .utf8)
        let original = try Data(contentsOf: URL(fileURLWithPath: configPath))

        let messages = folder + "/messages.txt"
        let subscriber = try broker.subscribe(["vitrine/lobby-2/#"], to: messages)
        defer { kill(subscriber.processIdentifier, SIGKILL) }
        let program = try MosquittoBroker.launchKiosk(config: configPath)
        defer { program.kill() }

        let base = "vitrine/lobby-2"
        func lines(_ topic: String) -> [String] { MosquittoBroker.payloads(on: topic, in: messages) }
        func json(_ text: String) -> [String: Any] { MosquittoBroker.jsonObject(text) }
        func state() -> [String: Any] { lines(base + "/state").last.map(json) ?? [:] }
        func waitFor(_ what: String, _ condition: () -> Bool) {
            if !FactWait(watching: [messages]).wait(timeout: 20, until: condition) { Issue.record("timed out waiting for \(what)") }
        }
        func push(_ text: String) throws -> [String: Any] {
            let before = lines(base + "/reply/config").count
            try broker.publish(base + "/cmd/config", text)
            waitFor("the reply to the push") { lines(base + "/reply/config").count > before }
            return lines(base + "/reply/config").dropFirst(before).first.map(json) ?? [:]
        }
        waitFor("the start page in the state") { state()["url"] as? String == server.url("start.html").absoluteString }

        for stolen in ["mqtt.pass", "~/.ssh/id_ed25519"] {
            let pushed = config(start: server.url("steal.html")) + """
                [[network.credentials]]
                origin = "http://127.0.0.1:\(server.port)"
                username = "kiosk"
                password-file = "\(stolen)"
                """
            let line = pushed.split(separator: "\n", omittingEmptySubsequences: false).lastIndex { $0.hasPrefix("password-file") }! + 1
            let reply = try push(pushed)
            #expect(reply["ok"] as? Bool == false)
            #expect((reply["error"] as? String)?.hasPrefix("\(configPath):\(line):17: network.credentials[0].password-file names a local file or folder") == true,
                    "\(stolen): \(reply)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: configPath)) == original)
        }
        let moved = try push(config(start: server.url("steal.html")).replacingOccurrences(of: "preset = \"kiosk\"", with: "preset = \"kiosk\"\napp-dir = \"/\""))
        #expect((moved["error"] as? String)?.hasPrefix("\(configPath):2:11: app-dir names a local file or folder") == true, "\(moved)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: configPath)) == original)
        #expect(!server.requestedPaths.contains { $0.hasPrefix("/steal.html") }, "\(server.requestedPaths)")
        #expect(state()["url"] as? String == server.url("start.html").absoluteString)
        #expect(!lines(base + "/events").contains { json($0)["action"] as? String == "config-push" })

        // The same paths (the password file spelled ./mqtt.pass): applied.
        let kept = config(start: server.url("second.html")).replacingOccurrences(of: "\"mqtt.pass\"", with: "\"./mqtt.pass\"")
        #expect(try push(kept)["ok"] as? Bool == true)
        #expect(try String(contentsOfFile: configPath, encoding: .utf8) == kept)
        waitFor("the pushed start page") { state()["url"] as? String == server.url("second.html").absoluteString }
    }
}
