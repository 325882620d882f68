import Foundation
import Testing
import Vitrine
import VitrineGTK
import VitrineTestSupport

extension WebKitTests {
    /// `vitrine fleet` and `[remote.mqtt] groups` on a real Mosquitto broker (TLS, password)
    /// with five real kiosks (`vitrine` processes under the test's display, each its own
    /// device id and data folder): group commands and their abuse, `fleet ls`, `fleet cmd`,
    /// `fleet screenshot`, and staged rollouts that halt — one on a refused push naming a
    /// local file, one on a kiosk whose trial of the new configuration fails.
    @Suite
    struct FleetProgramTests {
        static let kiosks = ["k1", "k2", "k3", "k4", "k5"]

        @Test func aRolloutHaltsAtTheKioskThatRollsItBackAndLaterBatchesNeverGetIt() throws {
            let broker = try MosquittoBroker()
            defer { broker.remove() }
            let server = try LoopbackHTTPServer(pages: [
                "old.html": "<!doctype html><title>old</title>old", "new.html": "<!doctype html><title>new</title>new"])
            defer { server.stop() }
            let folder = try broker.kioskFolder()
            let old = server.url("old.html").absoluteString, new = server.url("new.html").absoluteString
            func kioskConfig(_ id: String) -> String {
                // k3 gives a pushed page 50 ms to load: its trial of any new configuration fails.
                "preset = \"kiosk\"\nstart-url = \"\(old)\"\n\n" + broker.remoteSection(deviceID: id, caFile: broker.caFile)
                    + "groups = [\"lobby\"\(id == "k2" ? ", \"floor-2\"" : "")]\nconfig-trial-timeout = \(id == "k3" ? "0.05" : "20")\n"
            }
            for id in Self.kiosks { try kioskConfig(id).write(toFile: "\(folder)/\(id).toml", atomically: true, encoding: .utf8) }
            let fleetConfig = folder + "/fleet.toml"
            try broker.remoteSection(deviceID: "operator", caFile: broker.caFile).write(toFile: fleetConfig, atomically: true, encoding: .utf8)

            let messages = folder + "/messages.txt"
            let subscriber = try broker.subscribe(["vitrine/#"], excluding: ["vitrine/+/screenshot"], to: messages)
            defer { kill(subscriber.processIdentifier, SIGKILL) }
            func lines(_ topic: String) -> [String] { MosquittoBroker.payloads(on: topic, in: messages) }
            func json(_ text: String) -> [String: Any] { MosquittoBroker.jsonObject(text) }
            func state(_ id: String) -> [String: Any] { lines("vitrine/\(id)/state").last.map(json) ?? [:] }
            @discardableResult
            func waitFor(_ what: String, timeout: TimeInterval = 60, _ condition: () -> Bool) -> Bool {
                if FactWait(watching: [messages]).wait(timeout: timeout, until: condition) { return true }
                Issue.record("timed out waiting for \(what)")
                return false
            }

            // A retained group command waits on the broker: no kiosk may run it when it joins.
            try broker.publish("vitrine/group/lobby/cmd/navigate", new, retained: true)
            let programs = try Self.kiosks.map { id in
                try ProgramRun(["--new-instance", "--no-fullscreen", "--config", "\(folder)/\(id).toml"],
                               environment: ProgramRun.environment(dataHome: "\(folder)/\(id)-data"))
            }
            defer { for program in programs { program.kill() } }
            waitFor("five kiosks on the start page") { Self.kiosks.allSatisfy { state($0)["url"] as? String == old } }
            waitFor("the retained group command refused by every kiosk") {
                Self.kiosks.allSatisfy { id in lines("vitrine/\(id)/reply/navigate").contains { json($0)["error"] as? String == "retained commands are ignored: publish commands without the retain flag" } }
            }
            try broker.publish("vitrine/group/lobby/cmd/navigate", "", retained: true)  // cleared
            #expect(Self.kiosks.allSatisfy { state($0)["groups"] as? [String] == ($0 == "k2" ? ["lobby", "floor-2"] : ["lobby"]) })

            func fleet(_ arguments: [String]) throws -> (status: Int32, output: String, errors: String) {
                let run = try ProgramRun(["fleet"] + arguments)
                #expect(run.waitForExit(timeout: 120), "vitrine fleet \(arguments) did not end")
                run.end()
                return (run.process.terminationStatus, run.standardOutput, run.standardError)
            }
            let connection = ["--config", fleetConfig]

            // ls: every kiosk of a group, online, with its version.
            let listed = try fleet(["ls"] + connection + ["--group", "floor-2"])
            #expect(listed.status == 0, "\(listed)")
            let rows = listed.output.split(separator: "\n").map(String.init)
            #expect(rows.count == 2 && rows[1].hasPrefix("k2 ") && rows[1].contains(" online ") && rows[1].contains(old), "\(rows)")
            #expect(try fleet(["ls"] + connection).output.split(separator: "\n").count == 6)
            let wildcard = try fleet(["ls"] + connection + ["--group", "#"])
            #expect(wildcard.status != 0 && wildcard.errors.contains("--group must be one topic level"), "\(wildcard)")

            // A command on a group the kiosks are not in is not theirs: nothing answers it.
            // (A kiosk answers in order: its reply to a later command of its own comes after.)
            try broker.publish("vitrine/group/kitchen/cmd/navigate", new)
            let repliesBefore = Self.kiosks.map { lines("vitrine/\($0)/reply/reload").count }
            for id in Self.kiosks { try broker.publish("vitrine/\(id)/cmd/reload", "") }
            waitFor("the marker replies") { zip(Self.kiosks, repliesBefore).allSatisfy { lines("vitrine/\($0)/reply/reload").count > $1 } }
            #expect(Self.kiosks.allSatisfy { id in lines("vitrine/\(id)/reply/navigate").allSatisfy { json($0)["error"] as? String != nil } })
            #expect(Self.kiosks.allSatisfy { state($0)["url"] as? String == old })

            // cmd through the group topic: one publish, five replies.
            let reloaded = try fleet(["cmd"] + connection + ["--group", "lobby", "reload"])
            #expect(reloaded.status == 0 && reloaded.output.contains("5 of 5 replied"), "\(reloaded)")
            let shots = folder + "/shots"
            let shot = try fleet(["screenshot"] + connection + ["--group", "floor-2", shots])
            #expect(shot.status == 0, "\(shot)")
            #expect(FileManager.default.contents(atPath: shots + "/k2.png")?.prefix(4) == Data([0x89, 0x50, 0x4E, 0x47]))
            #expect(!FileManager.default.fileExists(atPath: shots + "/k1.png"), "k1 is not in floor-2")

            // A push naming a local file: the canary refuses it, the rollout halts there.
            let stealing = folder + "/stealing.toml"
            try "preset = \"kiosk\"\nstart-url = \"\(new)\"\n[metrics]\ntextfile = \"/root/.bashrc.prom\"\n"
                .write(toFile: stealing, atomically: true, encoding: .utf8)
            let refused = try fleet(["push", stealing, "--group", "lobby", "--canary", "1", "--batch", "25%"] + connection)
            #expect(refused.status != 0)
            #expect(refused.output.contains("names a local file or folder") && refused.output.contains("halted: 1 push failed"), "\(refused)")
            #expect(refused.output.split(separator: "\n").filter { $0.contains("not sent") }.count == 4, "\(refused.output)")
            for id in Self.kiosks { #expect(try String(contentsOfFile: "\(folder)/\(id).toml", encoding: .utf8) == kioskConfig(id)) }

            // The rollout: k1 (canary), then k2 and k3, where the trial fails; k4 and k5 never get it.
            let pushed = folder + "/new.toml"
            try "preset = \"kiosk\"\nstart-url = \"\(new)\"\n".write(toFile: pushed, atomically: true, encoding: .utf8)
            let started = Date()
            let rollout = try fleet(["push", pushed, "--group", "lobby", "--canary", "1", "--batch", "25%", "--timeout", "60"] + connection)
            let rolloutTime = Date().timeIntervalSince(started)
            #expect(rollout.status != 0, "\(rollout)")
            let table = rollout.output.split(separator: "\n").map(String.init)
            func row(_ id: String) -> String { table.first { $0.hasPrefix(id + " ") } ?? "" }
            #expect(row("k1").contains("canary") && row("k1").contains("kept"), "\(table)")
            #expect(row("k2").contains("kept") && row("k3").contains("rolled back") && row("k3").contains("did not load within 0.05"), "\(table)")
            #expect(row("k4").contains("not sent") && row("k5").contains("not sent"), "\(table)")
            #expect(table.contains { $0.hasPrefix("halted: k3 rolled the configuration back") }, "\(table)")
            for id in ["k1", "k2"] {
                // Each kept its own [remote.mqtt] (device id, groups, password file) under the pushed file.
                let file = try String(contentsOfFile: "\(folder)/\(id).toml", encoding: .utf8)
                #expect(file.hasPrefix("preset = \"kiosk\"\nstart-url = \"\(new)\"\n") && file.contains("device-id = '\(id)'"), "\(file)")
                waitFor("\(id) on the new page") { state(id)["url"] as? String == new }
            }
            for id in ["k3", "k4", "k5"] {
                #expect(try String(contentsOfFile: "\(folder)/\(id).toml", encoding: .utf8) == kioskConfig(id))
                #expect(state(id)["url"] as? String == old)
            }
            for id in ["k4", "k5"] {
                #expect(!lines("vitrine/\(id)/events").contains { json($0)["action"] as? String == "config-push" }, "\(id) got the push")
            }
            print("fleet: rollout to 5 kiosks (canary 1, batches of 2, halted at the second batch) took \(String(format: "%.1f", rolloutTime)) s")
            try Self.measureCommands(broker: broker, kiosk: "k4", group: "lobby")
        }

        /// `reload` to the effect (the kiosk's `finished` event on the broker) through its
        /// group's topic and through its own, five times each: the median of each is printed.
        static func measureCommands(broker: MosquittoBroker, kiosk: String, group: String) throws {
            var settings = MQTTSettings(broker: MQTTBroker("mqtts://127.0.0.1:\(broker.port)")!, deviceID: "measure")
            settings.username = broker.username
            settings.password = Credential(broker.password)
            settings.caCertificates = [broker.caFile]
            let client = try FleetClient(settings: settings)
            defer { client.close() }
            try client.connect(timeout: .seconds(10))
            let events = "vitrine/\(kiosk)/events"
            client.subscribe(events)
            func timeToFinished(_ topic: String) throws -> Double {
                let started = ContinuousClock.now
                try client.publish(topic, [])
                while let message = client.next(until: .now + .seconds(20)) {
                    guard message.topic == events, let line = try? JSONSerialization.jsonObject(with: Data(message.payload)) as? [String: Any],
                          line["event"] as? String == "finished" else { continue }
                    return started.duration(to: .now).inSeconds * 1000
                }
                Issue.record("no finished event after \(topic)")
                return .infinity
            }
            var viaGroup: [Double] = [], viaOwn: [Double] = []
            for _ in 0..<5 {
                viaGroup.append(try timeToFinished(client.topics.groupCommand(group, "reload")))
                viaOwn.append(try timeToFinished(client.topics.kiosk(kiosk).command("reload")))
            }
            func median(_ values: [Double]) -> String { String(format: "%.0f ms", values.sorted()[values.count / 2]) }
            print("fleet: reload to finished on \(kiosk), median of 5: through group \(group) \(median(viaGroup)), through its own topic \(median(viaOwn))")
            #expect(viaGroup.allSatisfy(\.isFinite) && viaOwn.allSatisfy(\.isFinite))
        }
    }
}
