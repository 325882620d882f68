import Foundation
import Testing
import VitrineTestSupport

extension WebKitTests {
    /// A real kiosk playlist on a real Mosquitto broker: alerts take over and revert by
    /// themselves or on `alert-clear`, a refused or retained alert changes nothing, and every
    /// item's turn is a proof-of-play record — in the events log, on the broker and in the
    /// daily file — that matches what the window loaded.
    @Suite
    struct SignageAlertProgramTests {
        @Test func alertsTakeOverAndRevertAndEveryTurnIsProvenPlayed() throws {
            let broker = try MosquittoBroker()
            defer { broker.remove() }
            let server = try LoopbackHTTPServer(pages: [
                "a.html": "<!doctype html><title>a</title>", "b.html": "<!doctype html><title>b</title>",
                "alert.html": "<!doctype html><title>alert</title>"])
            defer { server.stop() }
            let folder = try broker.kioskFolder()
            let dataHome = folder + "/data"
            let configPath = folder + "/kiosk.toml"
            try """
                preset = "kiosk"
                app-id = "org.example.Lobby"
                start-url = "\(server.url("a.html").absoluteString)"
                [schedule]
                proof-of-play-days = 2
                [[schedule.playlist]]
                url = "\(server.url("a.html").absoluteString)"
                duration = 1.5
                [[schedule.playlist]]
                url = "\(server.url("b.html").absoluteString)"
                duration = 1.5
                [[schedule.playlist]]
                url = "\(server.url("a.html").absoluteString)"
                duration = 1.5
                start-date = "2001-01-01"
                end-date = "2001-01-02"

                \(broker.remoteSection(deviceID: "lobby-2", caFile: broker.caFile))
                """.write(toFile: configPath, atomically: true, encoding: .utf8)
            let messages = folder + "/messages.txt"
            let subscriber = try broker.subscribe(["vitrine/lobby-2/#"], to: messages)
            defer { kill(subscriber.processIdentifier, SIGKILL) }
            // A retained alert waits on the broker: the kiosk must not run it when it connects.
            let alertURL = server.url("alert.html").absoluteString
            try broker.publish("vitrine/lobby-2/cmd/alert", #"{"url":"\#(alertURL)","seconds":60}"#, retained: true)
            let eventsPath = folder + "/events.jsonl"
            let program = try ProgramRun(["--new-instance", "--no-fullscreen", "--config", configPath, "--events", eventsPath],
                                         environment: ProgramRun.environment(dataHome: dataHome), watching: [messages])
            defer { program.kill() }

            let base = "vitrine/lobby-2"
            func lines(_ topic: String) -> [String] { MosquittoBroker.payloads(on: topic, in: messages) }
            func json(_ text: String) -> [String: Any] { MosquittoBroker.jsonObject(text) }
            func state() -> [String: Any] { lines(base + "/state").last.map(json) ?? [:] }
            @discardableResult
            func waitFor(_ what: String, timeout: TimeInterval = 20, _ condition: () -> Bool) -> Bool {
                if program.wait(timeout: timeout, until: condition), program.isRunning { return true }
                Issue.record("timed out waiting for \(what); stderr: \(program.standardError)")
                return false
            }
            func command(_ name: String, _ payload: String = "") throws -> [String: Any] {
                let topic = "\(base)/reply/\(name)"
                let before = lines(topic).count
                try broker.publish("\(base)/cmd/\(name)", payload)
                waitFor("the reply to \(name)") { lines(topic).count > before }
                return lines(topic).dropFirst(before).first.map(json) ?? [:]
            }
            func events(_ action: String) -> [[String: Any]] { program.events.filter { $0["action"] as? String == action } }
            func records() -> [[String: Any]] { program.events.filter { $0["type"] as? String == "proof-of-play" } }

            // The playlist turns: a, b (the third entry's window is long past: skipped), a, …
            waitFor("two shown turns") { records().filter { $0["outcome"] as? String == "shown" }.count >= 2 }
            waitFor("a skipped turn") { records().contains { $0["outcome"] as? String == "skipped" && $0["item"] as? Int == 2 } }

            waitFor("the retained alert refused") { lines(base + "/reply/alert").contains { $0.contains("retained commands are ignored") } }
            #expect(events("alert-started").isEmpty)

            // An alert: on screen (its load finished), in the state, then back by itself.
            let sent = Date()
            #expect(try command("alert", #"{"url":"\#(alertURL)","seconds":3}"#)["ok"] as? Bool == true)
            waitFor("the alert page loaded") { program.events.contains { $0["event"] as? String == "finished" && $0["url"] as? String == alertURL } }
            let shownAfter = Date().timeIntervalSince(sent)
            waitFor("the alert in the state") { (state()["alert"] as? [String: Any])?["url"] as? String == alertURL }
            let turnsDuringAlert = records().count
            waitFor("the alert's end") { events("alert-ended").first?["detail"] as? String == "expired" }
            waitFor("the playlist back") {
                let ended = program.events.lastIndex { $0["action"] as? String == "alert-ended" } ?? Int.max
                return program.events.indices.contains { $0 > ended && program.events[$0]["action"] as? String == "schedule-page" }
            }
            waitFor("no alert in the state") { state()["alert"] is NSNull }
            #expect(records().count >= turnsDuringAlert)
            print("alert-to-screen: \(Int(shownAfter * 1000)) ms (command sent to the alert page's load finished)")

            // Refused by the chain: a clear reply, nothing taken over.
            let foreign = try command("alert", #"{"url":"\#(server.url("alert.html", host: "localhost").absoluteString)","seconds":60}"#)
            #expect((foreign["error"] as? String)?.contains("refused by the navigation chain (origin-allowlist)") == true, "\(foreign)")
            waitFor("the refused alert ended") { events("alert-ended").contains { $0["detail"] as? String == "refused" } }
            #expect((try command("alert", #"{"url":"\#(alertURL)","seconds":86401}"#)["error"] as? String)?.contains("1 to 86400") == true)
            #expect((try command("alert-clear")["error"] as? String) == "no alert is shown")

            // A long alert, cleared: back at once.
            #expect(try command("alert", #"{"url":"\#(alertURL)","seconds":600}"#)["ok"] as? Bool == true)
            waitFor("the long alert in the state") { (state()["alert"] as? [String: Any])?["url"] as? String == alertURL }
            #expect(try command("alert-clear")["ok"] as? Bool == true)
            waitFor("the cleared alert ended") { events("alert-ended").contains { $0["detail"] as? String == "cleared" } }
            waitFor("no alert in the state after clearing") { state()["alert"] is NSNull }
            let turnsBefore = records().filter { $0["outcome"] as? String == "shown" }.count
            waitFor("the playlist turning again") { records().filter { $0["outcome"] as? String == "shown" }.count > turnsBefore }

            // Proof of play matches what the window loaded: each shown turn is a playlist page
            // whose load finished at its start, lasting its duration (or cut short by an alert).
            let all = records()
            for record in all where record["outcome"] as? String == "shown" {
                let url = record["url"] as? String ?? ""
                #expect([server.url("a.html").absoluteString, server.url("b.html").absoluteString].contains(url), "\(record)")
                #expect((record["seconds"] as? Double ?? -1) < 6, "\(record)")
            }
            let finishedPlaylistLoads = program.events.filter {
                $0["event"] as? String == "finished" && ($0["url"] as? String).map { $0.hasSuffix("/a.html") || $0.hasSuffix("/b.html") } == true
            }.count
            // Each shown record closed one finished load (the one still on screen is not closed yet).
            #expect(all.filter { $0["outcome"] as? String == "shown" }.count <= finishedPlaylistLoads)
            #expect(!all.contains { $0["url"] as? String == alertURL }, "an alert is not a playlist turn")
            // On the broker and in today's file: the same lines.
            let onBroker = Set(lines(base + "/proof-of-play"))
            let files = (try? FileManager.default.contentsOfDirectory(atPath: dataHome + "/org.example.Lobby/proof-of-play")) ?? []
            #expect(files.count == 1 && files.allSatisfy { $0.hasSuffix(".jsonl") }, "\(files)")
            let inFile = Set(files.flatMap { name in
                ((try? String(contentsOfFile: dataHome + "/org.example.Lobby/proof-of-play/" + name, encoding: .utf8)) ?? "")
                    .split(separator: "\n").map(String.init)
            })
            #expect(onBroker.count >= 4 && onBroker.isSubset(of: inFile), "broker \(onBroker.count), file \(inFile.count)")
        }
    }
}
