/// How many events-log lines of each kind may be written: a token bucket per kind, so that
/// a page flooding one refused call cannot fill the disk, while other kinds keep their own
/// allowance. What it drops is counted per kind and told in one line now and then.
///
/// Time is given, never read (`at:`, time since any fixed start): the log reads its clock,
/// tests pass what they like.
public struct EventRateLimiter: Sendable {
    public struct Limits: Sendable, Equatable {
        /// Lines of one kind written at once before any is dropped.
        public var burst: Int
        /// Lines of one kind per second after a burst.
        public var perSecond: Double
        /// How often the dropped counts are written.
        public var reportInterval: Duration
        /// Kinds with a bucket of their own; further kinds share one (a page choosing a new
        /// name for each call gets no fresh allowance, and no memory).
        public var kinds: Int

        public init(burst: Int = 200, perSecond: Double = 20, reportInterval: Duration = .seconds(5), kinds: Int = 64) {
            self.burst = burst
            self.perSecond = perSecond
            self.reportInterval = reportInterval
            self.kinds = kinds
        }
    }

    /// The bucket shared by kinds beyond `Limits.kinds`.
    public static let otherKinds = "(other kinds)"

    private struct Bucket {
        var tokens: Double
        var updated: Duration
    }

    public let limits: Limits
    private var buckets: [String: Bucket] = [:]
    /// Dropped lines per kind since the last report.
    private var dropped: [String: Int] = [:]

    public init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// Whether a line of `kind` may be written at `now`; a refused one is counted.
    public mutating func admit(_ kind: String, at now: Duration) -> Bool {
        let key = buckets[kind] != nil || buckets.count < limits.kinds ? kind : Self.otherKinds
        var bucket = buckets[key] ?? Bucket(tokens: Double(limits.burst), updated: now)
        let elapsed = max(0, (now - bucket.updated).inSeconds)
        bucket.tokens = min(Double(limits.burst), bucket.tokens + elapsed * limits.perSecond)
        bucket.updated = now
        let admitted = bucket.tokens >= 1
        if admitted { bucket.tokens -= 1 } else { dropped[key, default: 0] += 1 }
        buckets[key] = bucket
        return admitted
    }

    /// Whether lines were dropped since the last report.
    public var hasDrops: Bool { !dropped.isEmpty }

    /// The lines dropped since the last report, per kind (sorted by kind), and a fresh count.
    /// Buckets full again are forgotten, so that new kinds get one of their own.
    public mutating func takeDrops(at now: Duration) -> [(kind: String, count: Int)] {
        let report = dropped.sorted { $0.key < $1.key }.map { (kind: $0.key, count: $0.value) }
        dropped = [:]
        buckets = buckets.filter { _, bucket in
            bucket.tokens + max(0, (now - bucket.updated).inSeconds) * limits.perSecond < Double(limits.burst)
        }
        return report
    }

    /// What an event counts as: its type and the field that names what happened (the
    /// strategy and outcome of a message, the action of native work, …), at most 120 bytes.
    public static func kind(of event: ContainerEvent) -> String {
        let kind: String = switch event {
        case let .navigation(_, handler, policy, _, _, _): "navigation \(handler) \(policy.rawValue)"
        case let .message(name, outcome, _, _, _): "message \(name) \(outcome.rawValue)"
        case let .load(event, _, _, _, _): "load \(event.rawValue)"
        case let .native(action, _): "native \(action.rawValue)"
        case let .permission(kind, _, granted): "permission \(kind) \(granted)"
        case let .print(_, _, outcome, _): "print \(outcome.rawValue)"
        case let .proofOfPlay(record): "proof-of-play \(record.item) \(record.outcome.rawValue)"
        case .mediaCodecs: "media-codecs"
        case .renderer: "renderer"
        case let .bundleSync(report): "bundle-sync \(report.outcome.rawValue)"
        case let .startup(mark): "startup \(mark.phase.rawValue)"
        case let .sidecar(record): "sidecar \(record.name) \(record.event.rawValue)"
        case let .sidecarOutput(name, _, _): "sidecar-output \(name)"
        }
        guard kind.utf8.count > 120 else { return kind }
        return String(decoding: kind.utf8.prefix(120), as: UTF8.self)
    }
}
