import Vitrine

/// A staged rollout of one configuration to a group's kiosks (`vitrine fleet push`): the
/// canaries first, then batches of a share of the group, each kiosk's `reply/config`
/// awaited before the next batch. It halts at the first push a kiosk rolled back (its
/// trial failed: the configuration is bad, not the kiosk) or once `haltAfter` pushes have
/// failed in any way; the kiosks of later batches never receive it. Offline kiosks are
/// skipped and shown as such.
///
/// A value: the tool sends `nextBatch()`, records each kiosk's reply (or its silence), and
/// prints `table` — the plan and its halting are tested without a broker.
public struct Rollout: Sendable, Equatable {
    /// What became of the push to one kiosk.
    public enum Outcome: Sendable, Equatable {
        /// Not sent yet (a later batch).
        case waiting
        /// Sent; no reply yet.
        case sent
        /// Applied and its start page loaded: kept.
        case kept
        /// Applied, then rolled back by the kiosk's trial.
        case rolledBack(String)
        /// Refused before it was applied (invalid, names local files, another on trial…).
        case refused(String)
        /// No reply within the tool's time.
        case noReply
        /// Offline when the rollout began: never sent.
        case offline
        /// Its batch never came: the rollout halted first.
        case held

        public var isFailure: Bool {
            switch self {
            case .rolledBack, .refused, .noReply: true
            default: false
            }
        }
    }

    public struct Entry: Sendable, Equatable {
        public let kiosk: String
        /// 0: the canaries; 1…: the batches after them; nil: offline, in no batch.
        public let batch: Int?
        public internal(set) var outcome: Outcome
    }

    public private(set) var entries: [Entry]
    public let haltAfter: Int
    /// Why the rollout stopped early; nil while it goes on or when it finished.
    public private(set) var haltReason: String?
    private var next = 0
    private let batchCount: Int

    /// Plans `online` kiosks (in the order given: the first `canary` are the canaries) in
    /// batches of `batchPercent` % of them (rounded up, at least one kiosk); `offline` ones
    /// are listed, never sent.
    public init(online: [String], offline: [String] = [], canary: Int, batchPercent: Int, haltAfter: Int = 1) throws(RolloutError) {
        guard canary >= 0 else { throw RolloutError("--canary must be 0 or more, got \(canary)") }
        guard (1...100).contains(batchPercent) else { throw RolloutError("--batch must be 1% to 100%, got \(batchPercent)%") }
        guard haltAfter >= 1 else { throw RolloutError("--halt-after must be 1 or more, got \(haltAfter)") }
        guard !online.isEmpty else { throw RolloutError("no online kiosk to push to") }
        guard Set(online).count == online.count else { throw RolloutError("a kiosk is listed twice") }
        self.haltAfter = haltAfter
        let canaries = min(canary, online.count)
        let size = max(1, (online.count * batchPercent + 99) / 100)
        var entries = online.prefix(canaries).map { Entry(kiosk: $0, batch: 0, outcome: .waiting) }
        for (index, kiosk) in online.dropFirst(canaries).enumerated() {
            entries.append(Entry(kiosk: kiosk, batch: 1 + index / size, outcome: .waiting))
        }
        batchCount = (entries.map { $0.batch ?? 0 }.max() ?? 0) + 1
        // Without canaries the first batch is batch 1.
        next = canaries == 0 ? 1 : 0
        self.entries = entries + offline.sorted().map { Entry(kiosk: $0, batch: nil, outcome: .offline) }
    }

    /// Parses `--batch`'s `25%` (or `25`).
    public static func percent(_ text: String) -> Int? {
        Int(text.hasSuffix("%") ? String(text.dropLast()) : text)
    }

    /// The kiosks of the next batch, now marked sent; nil when the rollout is over (done or halted).
    public mutating func nextBatch() -> [String]? {
        guard haltReason == nil, next < batchCount else { return nil }
        let batch = next
        next += 1
        var kiosks: [String] = []
        for index in entries.indices where entries[index].batch == batch {
            entries[index].outcome = .sent
            kiosks.append(entries[index].kiosk)
        }
        return kiosks
    }

    /// The reply of `kiosk` (nil: none in time). A reply from a kiosk that was not sent the
    /// configuration, or a second one, changes nothing.
    public mutating func record(_ kiosk: String, reply: RemoteReply?) {
        guard let index = entries.firstIndex(where: { $0.kiosk == kiosk }), entries[index].outcome == .sent else { return }
        let outcome: Outcome = switch reply {
        case nil: .noReply
        case let reply? where reply.ok: .kept
        case let reply?:
            (reply.error ?? "").hasPrefix(ConfigTrial.rolledBackPrefix)
                ? .rolledBack(String((reply.error ?? "").dropFirst(ConfigTrial.rolledBackPrefix.count))) : .refused(reply.error ?? "refused")
        }
        entries[index].outcome = outcome
        guard haltReason == nil else { return }
        if case .rolledBack(let reason) = outcome {
            halt("\(kiosk) rolled the configuration back (\(reason))")
        } else if failures >= haltAfter {
            halt("\(failures) push\(failures == 1 ? "" : "es") failed (--halt-after \(haltAfter)), the last on \(kiosk)")
        }
    }

    private mutating func halt(_ reason: String) {
        haltReason = reason
        for index in entries.indices where entries[index].outcome == .waiting { entries[index].outcome = .held }
    }

    public var failures: Int { entries.filter(\.outcome.isFailure).count }
    /// Whether every online kiosk kept the configuration.
    public var succeeded: Bool { haltReason == nil && entries.allSatisfy { $0.outcome == .kept || $0.outcome == .offline } }

    /// What went where, one row per kiosk, and a closing line.
    public var table: String {
        let rows = entries.map { entry -> [String] in
            let batch = entry.batch.map { $0 == 0 ? "canary" : String($0) } ?? "-"
            let (outcome, detail): (String, String) = switch entry.outcome {
            case .waiting: ("waiting", "")
            case .sent: ("sent", "")
            case .kept: ("kept", "")
            case .rolledBack(let reason): ("rolled back", reason)
            case .refused(let reason): ("refused", reason)
            case .noReply: ("no reply", "")
            case .offline: ("offline", "not sent")
            case .held: ("not sent", "the rollout halted")
            }
            return [entry.kiosk, batch, outcome, detail]
        }
        let kept = entries.filter { $0.outcome == .kept }.count, online = entries.filter { $0.batch != nil }.count
        let closing = haltReason.map { "halted: \($0); \(kept) of \(online) kiosks kept it" } ?? "done: \(kept) of \(online) kiosks kept it"
        return TextTable.render(header: ["KIOSK", "BATCH", "OUTCOME", "DETAIL"], rows: rows) + "\n" + closing
    }
}
