/// One view's count of admitted calls per frame document and strategy, and the channels
/// opened from it (`ChannelPolicy`): the adapter asks it after each admitted call on a
/// shared handler and opens a channel when it says so.
public struct ChannelLedger: Sendable {
    /// A channel to open, and whether it takes batches.
    public struct Opening: Sendable, Equatable {
        /// Only when the strategy answered every call that earned the channel within
        /// WebKit's signal: a batch's one reply must not wait long for its slowest call.
        public let batches: Bool

        public init(batches: Bool) {
            self.batches = batches
        }
    }

    private struct Candidate {
        var calls = 0
        var allAnsweredAtOnce = true
    }

    private var candidates: [FrameToken: [String: Candidate]] = [:]
    private var open: [FrameToken: Set<String>] = [:]
    /// Channels opened in this view's life (never fewer: their handler names stay).
    public private(set) var opened = 0
    private let openAfter: Int
    private let limit: Int

    public init(openAfter: Int = ChannelPolicy.openAfter, limit: Int = ChannelPolicy.channelsPerView) {
        self.openAfter = openAfter
        self.limit = limit
    }

    /// Counts one admitted call of `token`'s document to `strategy` (never a refused one);
    /// the channel to open when this call is the one that earns it, else nil. A frame gets
    /// at most one channel per strategy, and the view at most `limit` in its life.
    public mutating func countAdmittedCall(to strategy: String, from token: FrameToken, answeredAtOnce: Bool) -> Opening? {
        guard open[token]?.contains(strategy) != true, opened < limit else { return nil }
        var candidate = candidates[token]?[strategy] ?? Candidate()
        candidate.calls += 1
        candidate.allAnsweredAtOnce = candidate.allAnsweredAtOnce && answeredAtOnce
        guard candidate.calls >= openAfter else {
            candidates[token, default: [:]][strategy] = candidate
            return nil
        }
        candidates[token]?[strategy] = nil
        if candidates[token]?.isEmpty == true { candidates[token] = nil }
        open[token, default: []].insert(strategy)
        opened += 1
        return Opening(batches: candidate.allAnsweredAtOnce)
    }

    /// Whether `token`'s document has a channel to `strategy`.
    public func hasChannel(_ token: FrameToken, to strategy: String) -> Bool {
        open[token]?.contains(strategy) == true
    }

    /// The document has gone: its counts and channels with it (the count of channels
    /// opened stays).
    public mutating func forget(_ token: FrameToken) {
        candidates[token] = nil
        open[token] = nil
    }

    /// Every document has gone (the view tears down, or its web process died).
    public mutating func forgetAll() {
        candidates.removeAll()
        open.removeAll()
    }
}
