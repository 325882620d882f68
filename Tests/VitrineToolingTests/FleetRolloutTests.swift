import Testing
import Vitrine
import VitrineTooling

/// `Rollout`: canaries, batches, halting and the table of `vitrine fleet push`; and the
/// kiosks as `vitrine fleet` reads them from their retained state (display-free).
@Suite("Fleet: rollout plan")
struct FleetRolloutTests {
    private let kept = RemoteReply.success
    private let rolledBack = RemoteReply.failure(ConfigTrial.rolledBackPrefix + "the new start page http://x/ did not load within 3 s")

    private func batches(_ rollout: inout Rollout, answering reply: (String) -> RemoteReply? = { _ in .success }) -> [[String]] {
        var sent: [[String]] = []
        while let batch = rollout.nextBatch() {
            sent.append(batch)
            for kiosk in batch { rollout.record(kiosk, reply: reply(kiosk)) }
        }
        return sent
    }

    @Test func canariesGoFirstThenBatchesOfTheShareRoundedUp() throws {
        var rollout = try Rollout(online: ["k1", "k2", "k3", "k4", "k5"], canary: 1, batchPercent: 25)
        #expect(batches(&rollout) == [["k1"], ["k2", "k3"], ["k4", "k5"]])
        #expect(rollout.succeeded && rollout.haltReason == nil)
        #expect(rollout.table.hasSuffix("done: 5 of 5 kiosks kept it"))
        var whole = try Rollout(online: ["a", "b", "c"], canary: 0, batchPercent: 100)
        #expect(batches(&whole) == [["a", "b", "c"]])
        var many = try Rollout(online: ["a", "b", "c"], canary: 9, batchPercent: 1)
        #expect(batches(&many) == [["a", "b", "c"]], "the canaries are at most the group")
        var tiny = try Rollout(online: ["a", "b", "c"], canary: 0, batchPercent: 1)
        #expect(batches(&tiny) == [["a"], ["b"], ["c"]], "a batch is at least one kiosk")
    }

    @Test func aRollBackHaltsAndLaterBatchesNeverGetIt() throws {
        var rollout = try Rollout(online: ["k1", "k2", "k3", "k4", "k5"], offline: ["k0"], canary: 1, batchPercent: 25, haltAfter: 5)
        let sent = batches(&rollout) { $0 == "k3" ? rolledBack : kept }
        #expect(sent == [["k1"], ["k2", "k3"]])
        #expect(rollout.haltReason?.hasPrefix("k3 rolled the configuration back (the new start page http://x/") == true)
        #expect(!rollout.succeeded)
        let outcomes = Dictionary(uniqueKeysWithValues: rollout.entries.map { ($0.kiosk, $0.outcome) })
        #expect(outcomes["k2"] == .kept && outcomes["k4"] == .held && outcomes["k5"] == .held && outcomes["k0"] == .offline)
        #expect(outcomes["k3"] == .rolledBack("the new start page http://x/ did not load within 3 s"))
        let lines = rollout.table.split(separator: "\n").map(String.init)
        #expect(lines[0].hasPrefix("KIOSK  BATCH   OUTCOME"), "\(lines)")
        #expect(lines.contains { $0.hasPrefix("k4") && $0.contains("2") && $0.contains("not sent") && $0.contains("the rollout halted") })
        #expect(lines.contains { $0.hasPrefix("k0") && $0.contains("offline") })
        #expect(lines.last == "halted: k3 rolled the configuration back (the new start page http://x/ did not load within 3 s); 2 of 5 kiosks kept it")
    }

    @Test func aStartPageThatAnswered404IsNamedInTheHalt() throws {
        var rollout = try Rollout(online: ["k1", "k2"], canary: 1, batchPercent: 100)
        let reply = RemoteReply.failure(ConfigTrial.rolledBackPrefix + "the new start page answered HTTP 404 (http://x/missing.html)")
        #expect(batches(&rollout) { _ in reply } == [["k1"]])
        #expect(rollout.haltReason == "k1 rolled the configuration back (the new start page answered HTTP 404 (http://x/missing.html))")
        #expect(rollout.table.contains("rolled back") && rollout.table.contains("answered HTTP 404"))
    }

    @Test func otherFailuresHaltOnlyOnceThereAreEnough() throws {
        var rollout = try Rollout(online: ["a", "b", "c", "d"], canary: 0, batchPercent: 25, haltAfter: 2)
        let sent = batches(&rollout) { kiosk in
            switch kiosk {
            case "a": .failure("kiosk.toml:2:13: start-url must be an absolute URL")
            case "b": nil  // no reply in time
            default: .success
            }
        }
        #expect(sent == [["a"], ["b"]])
        #expect(rollout.failures == 2 && rollout.haltReason?.hasPrefix("2 pushes failed (--halt-after 2), the last on b") == true)
        #expect(rollout.entries.map(\.outcome) == [.refused("kiosk.toml:2:13: start-url must be an absolute URL"), .noReply, .held, .held])
        var once = try Rollout(online: ["a", "b"], canary: 1, batchPercent: 50)
        #expect(batches(&once) { _ in .failure("another pushed configuration is still on trial") } == [["a"]], "halt-after 1 by default")
    }

    @Test func strayAndRepeatedRepliesChangeNothing() throws {
        var rollout = try Rollout(online: ["a", "b"], canary: 1, batchPercent: 50)
        #expect(rollout.nextBatch() == ["a"])
        rollout.record("b", reply: rolledBack)  // b was not sent the configuration
        rollout.record("stranger", reply: rolledBack)
        rollout.record("a", reply: kept)
        rollout.record("a", reply: rolledBack)  // a second reply
        #expect(rollout.haltReason == nil && rollout.entries.map(\.outcome) == [.kept, .waiting])
    }

    @Test func impossiblePlansAreRefused() {
        func problem(_ make: () throws -> Rollout) -> String? {
            do { _ = try make(); return nil } catch { return (error as? RolloutError)?.description ?? "not a RolloutError: \(error)" }
        }
        #expect(problem { try Rollout(online: ["a"], canary: 1, batchPercent: 0) } == "--batch must be 1% to 100%, got 0%")
        #expect(problem { try Rollout(online: ["a"], canary: 1, batchPercent: 101) } == "--batch must be 1% to 100%, got 101%")
        #expect(problem { try Rollout(online: ["a"], canary: -1, batchPercent: 10) } == "--canary must be 0 or more, got -1")
        #expect(problem { try Rollout(online: ["a"], canary: 1, batchPercent: 10, haltAfter: 0) } == "--halt-after must be 1 or more, got 0")
        #expect(problem { try Rollout(online: [], offline: ["a"], canary: 1, batchPercent: 10) } == "no online kiosk to push to")
        #expect(problem { try Rollout(online: ["a", "a"], canary: 1, batchPercent: 10) } == "a kiosk is listed twice")
        #expect(Rollout.percent("25%") == 25 && Rollout.percent("40") == 40 && Rollout.percent("x%") == nil)
    }

    @Test func kiosksAreReadFromTheirRetainedStateAndTheirWill() {
        let topics = FleetTopics(prefix: "corp/screens")
        #expect(topics.states == "corp/screens/+/state" && topics.replies("config") == "corp/screens/+/reply/config")
        #expect(topics.deviceID(of: "corp/screens/lobby-1/reply/config", tail: "reply/config") == "lobby-1")
        #expect(topics.deviceID(of: "corp/screens/a/b/state", tail: "state") == nil)
        #expect(topics.deviceID(of: "corp/screens//state", tail: "state") == nil)
        #expect(topics.deviceID(of: "other/lobby-1/state", tail: "state") == nil)
        #expect(topics.groupCommand("lobby", "reload") == "corp/screens/group/lobby/cmd/reload")
        var state = KioskState(version: "1.4", groups: ["lobby"])
        state.url = "https://a.example/"
        state.lastError = "refused: https://b.example/"
        let online = FleetKiosk(id: "lobby-1", statePayload: Array(state.json.jsonText.utf8))
        #expect(online == FleetKiosk(id: "lobby-1", online: true, version: "1.4", url: "https://a.example/",
                                     lastError: "refused: https://b.example/", groups: ["lobby"]))
        let gone = FleetKiosk(id: "lobby-2", statePayload: Array(KioskState.offline.jsonText.utf8))
        #expect(gone == FleetKiosk(id: "lobby-2", online: false))
        #expect(FleetKiosk(id: "x", statePayload: Array("not json".utf8)) == nil)
        let kiosks = [gone!, online!, FleetKiosk(id: "hall", online: true, groups: ["hall"])]
        #expect(FleetKiosk.members(of: "lobby", in: kiosks).map(\.id) == ["lobby-1"])
        #expect(FleetKiosk.members(of: nil, in: kiosks).map(\.id) == ["hall", "lobby-1", "lobby-2"])
        let table = FleetKiosk.table([online!, gone!]).split(separator: "\n").map(String.init)
        #expect(table == [
            "KIOSK    STATE    VERSION  GROUPS  URL                 LAST ERROR",
            "lobby-1  online   1.4      lobby   https://a.example/  refused: https://b.example/",
            "lobby-2  offline",
        ], "\(table)")
    }

    @Test func repliesAreReadAsPublished() {
        #expect(RemoteReply(payload: Array(#"{"ok":false,"error":"no"}"#.utf8)) == .failure("no"))
        #expect(RemoteReply(payload: Array(RemoteReply.success.json.jsonText.utf8)) == .success)
        #expect(RemoteReply(payload: Array(#"{"error":"no"}"#.utf8)) == nil)
    }
}
