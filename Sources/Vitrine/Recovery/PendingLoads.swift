#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Loads a view was asked for that wait for their navigation's decision: each is answered
/// exactly once — by the first request-phase decision on the same page
/// (`URL.isSamePage(as:)`), by the timeout, or with `abandoned` when the view goes.
///
/// WebKitGTK names no navigation: a load is matched to its decision by its URL, which
/// WebKit may have rewritten (`https://a.test` is asked about as `https://a.test/`).
@MainActor
public final class PendingLoads {
    /// One load's question, answered once (`AnswerOnce`); dropped unanswered, abandoned.
    @MainActor
    private final class Load {
        let url: URL
        private let once: AnswerOnce<LoadOutcome>
        /// The timeout's task, cancelled once answered.
        var timer: Task<Void, Never>?

        init(url: URL, answer: @escaping @MainActor (LoadOutcome) -> Void) {
            self.url = url
            once = AnswerOnce(unanswered: .abandoned(reason: "the view is gone"), deliver: answer)
        }

        var isAnswered: Bool { once.isAnswered }

        func resolve(_ outcome: LoadOutcome) {
            guard once.answer(outcome) else { return }
            timer?.cancel()
        }
    }

    private var loads: [Load] = []
    private let timeout: Duration
    private let sleep: @Sendable (Duration) async throws -> Void

    /// - Parameters:
    ///   - timeout: how long a load waits for its decision (WebKit may never ask: a load
    ///     replaced by another before it started).
    ///   - clock: the timeout's time.
    public init<C: Clock>(timeout: Duration, clock: C) where C.Duration == Duration {
        self.timeout = timeout
        sleep = { try await clock.sleep(for: $0) }
    }

    public convenience init(timeout: Duration) {
        self.init(timeout: timeout, clock: ContinuousClock())
    }

    /// Loads still waiting.
    public var count: Int { loads.count }

    /// Waits for the decision on `url`; `answer` is called once.
    public func add(_ url: URL, answer: @escaping @MainActor (LoadOutcome) -> Void) {
        let load = Load(url: url, answer: answer)
        loads.append(load)
        let timeout = self.timeout
        let sleep = self.sleep
        load.timer = Task { @MainActor [weak self, weak load] in
            guard (try? await sleep(timeout)) != nil else { return } // answered first
            load?.resolve(.abandoned(reason: "no navigation decision within \(timeout.inSeconds) s"))
            self?.prune()
        }
    }

    /// A request-phase decision on `url`: answers the oldest load of the same page.
    public func decided(_ url: URL, _ decision: NavigationDecision) {
        guard let load = loads.first(where: { !$0.isAnswered && $0.url.isSamePage(as: url) }) else { return }
        load.resolve(.decided(decision))
        prune()
    }

    /// Answers every waiting load with `abandoned(reason)`.
    public func abandonAll(_ reason: String) {
        let waiting = loads
        loads = []
        for load in waiting { load.resolve(.abandoned(reason: reason)) }
    }

    private func prune() {
        loads.removeAll { $0.isAnswered }
    }

    isolated deinit {
        abandonAll("the view is gone")
    }
}
