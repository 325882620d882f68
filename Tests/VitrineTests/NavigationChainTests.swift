import Foundation
import Testing
import Vitrine
import VitrineTesting

@MainActor
@Suite("Navigation chain: order and pass-through")
struct NavigationChainOrderTests {
    let host = TestHost()
    var context: NavigationContext { NavigationContext(host: host) }
    let action = NavigationAction(url: url("https://example.com/page"), navigationType: .linkActivated)

    @Test func handlersAreConsultedInOrderAndFirstDecidingHandlerWins() async {
        let log = CallLog()
        let chain = NavigationChain([
            RecordingHandler("first", log: log, answering: .pass),
            RecordingHandler("second", log: log, answering: .pass),
            RecordingHandler("decider", log: log, answering: .decide(.allow)),
            RecordingHandler("never", log: log, answering: .decide(.cancel)),
            RecordingHandler("never-either", log: log, answering: .decide(.download)),
        ])
        let decision = await chain.decide(action, context: context)
        #expect(decision == NavigationDecision(policy: .allow, handler: "decider"))
        #expect(decision.timedOutHandler == nil)
        #expect(log.names == ["first", "second", "decider"])
    }

    @Test func firstHandlerDecidingStopsTheChainAtOnce() async {
        let log = CallLog()
        let chain = NavigationChain([
            RecordingHandler("blocker", log: log, answering: .decide(.cancel)),
            RecordingHandler("allower", log: log, answering: .decide(.allow)),
        ])
        let decision = await chain.decide(action, context: context)
        #expect(decision.policy == .cancel)
        #expect(decision.handler == "blocker")
        #expect(log.names == ["blocker"])
    }

    @Test func handlersSeeTheActionUnchanged() async {
        let seen = CallLog()
        let chain = NavigationChain([
            RecordingHandler("a") { action in seen.record(action.url.absoluteString); return .pass },
            RecordingHandler("b") { action in seen.record(action.url.absoluteString); return .decide(.allow) },
        ])
        _ = await chain.decide(action, context: context)
        #expect(seen.names == ["https://example.com/page", "https://example.com/page"])
    }

    @Test func allPassingFailsClosedAtEndOfChain() async {
        let log = CallLog()
        let chain = NavigationChain([
            RecordingHandler("a", log: log, answering: .pass),
            RecordingHandler("b", log: log, answering: .pass),
        ])
        let decision = await chain.decide(action, context: context)
        #expect(decision == NavigationDecision(policy: .cancel, handler: "end-of-chain"))
        #expect(decision.handler == NavigationChain.endOfChain)
        #expect(log.names == ["a", "b"])
    }

    @Test func emptyChainCancels() async {
        let decision = await NavigationChain().decide(action, context: context)
        #expect(decision == NavigationDecision(policy: .cancel, handler: "end-of-chain"))
    }

    @Test func responsePhaseSkipsHandlersThatDoNotDecideResponses() async {
        let log = CallLog()
        let chain = NavigationChain([
            RecordingHandler("request-only", log: log, answering: .decide(.cancel)),
            RecordingHandler("response-pass", log: log, decidesResponses: true, answering: .pass),
            RecordingHandler("request-only-2", log: log, answering: .decide(.allow)),
            RecordingHandler("response-decider", log: log, decidesResponses: true, answering: .decide(.download)),
        ])
        let decision = await chain.decide(responseAction("https://example.com/file.zip"), context: context)
        #expect(decision == NavigationDecision(policy: .download, handler: "response-decider"))
        #expect(log.names == ["response-pass", "response-decider"])
    }

    @Test func requestPhaseConsultsRequestOnlyHandlers() async {
        let log = CallLog()
        let chain = NavigationChain([
            RecordingHandler("request-only", log: log, answering: .decide(.cancel)),
            RecordingHandler("response-decider", log: log, decidesResponses: true, answering: .decide(.allow)),
        ])
        let decision = await chain.decide(action, context: context)
        #expect(decision == NavigationDecision(policy: .cancel, handler: "request-only"))
        #expect(log.names == ["request-only"])
    }

    @Test func responsePhaseWithOnlyRequestHandlersEndsTheChain() async {
        let log = CallLog()
        let chain = NavigationChain([RecordingHandler("request-only", log: log, answering: .decide(.allow))])
        let decision = await chain.decide(responseAction("https://example.com/"), context: context)
        #expect(decision == NavigationDecision(policy: .cancel, handler: "end-of-chain"))
        #expect(log.names.isEmpty)
    }
}

@Suite("Navigation chain: recombination")
struct NavigationChainRecombinationTests {
    let chain = NavigationChain([NamedHandler("a"), NamedHandler("b"), NamedHandler("c")], defaultTimeout: .seconds(3))

    @Test func names() {
        #expect(chain.names == ["a", "b", "c"])
        #expect(NavigationChain().names == [])
    }

    @Test func appendingAndPrepending() {
        #expect(chain.appending(NamedHandler("z")).names == ["a", "b", "c", "z"])
        #expect(chain.prepending(NamedHandler("z")).names == ["z", "a", "b", "c"])
        #expect(chain.names == ["a", "b", "c"], "recombining returns a new chain; the original is unchanged")
    }

    @Test func insertingBefore() {
        #expect(chain.inserting(NamedHandler("z"), before: "b").names == ["a", "z", "b", "c"])
        #expect(chain.inserting(NamedHandler("z"), before: "a").names == ["z", "a", "b", "c"])
        #expect(chain.inserting(NamedHandler("z"), before: "missing").names == ["a", "b", "c", "z"])
    }

    @Test func removingNamed() {
        #expect(chain.removing(named: "b").names == ["a", "c"])
        #expect(chain.removing(named: "missing").names == ["a", "b", "c"])
        #expect(chain.removing(named: "a").removing(named: "b").removing(named: "c").names == [])
    }

    @Test @MainActor func replacingKeepsPositionAndUsesTheNewHandler() async {
        let original = NavigationChain([
            RecordingHandler("a", answering: .pass),
            RecordingHandler("b", answering: .decide(.cancel)),
            RecordingHandler("c", answering: .decide(.allow)),
        ])
        let replaced = original.replacing(RecordingHandler("b", answering: .pass))
        #expect(replaced.names == ["a", "b", "c"])
        let context = NavigationContext(host: TestHost())
        let action = NavigationAction(url: url("https://example.com/"))
        #expect(await original.decide(action, context: context).handler == "b")
        #expect(await replaced.decide(action, context: context) == NavigationDecision(policy: .allow, handler: "c"))
    }

    @Test func replacingAnAbsentHandlerAppends() {
        #expect(chain.replacing(NamedHandler("z")).names == ["a", "b", "c", "z"])
    }

    @Test func reordered() {
        #expect(chain.reordered(["c", "a", "b"]).names == ["c", "a", "b"])
        #expect(chain.reordered(["c"]).names == ["c", "a", "b"], "unnamed handlers keep their order after the named")
        #expect(chain.reordered(["b", "missing"]).names == ["b", "a", "c"])
        #expect(chain.reordered([]).names == ["a", "b", "c"])
    }

    @Test func recombiningKeepsTheDefaultTimeout() {
        #expect(chain.appending(NamedHandler("z")).defaultTimeout == .seconds(3))
        #expect(chain.prepending(NamedHandler("z")).defaultTimeout == .seconds(3))
        #expect(chain.inserting(NamedHandler("z"), before: "a").defaultTimeout == .seconds(3))
        #expect(chain.removing(named: "a").defaultTimeout == .seconds(3))
        #expect(chain.replacing(NamedHandler("a")).defaultTimeout == .seconds(3))
        #expect(chain.reordered(["c"]).defaultTimeout == .seconds(3))
        let retimed = chain.withDefaultTimeout(.milliseconds(20))
        #expect(retimed.defaultTimeout == .milliseconds(20))
        #expect(retimed.names == ["a", "b", "c"])
        #expect(NavigationChain().defaultTimeout == .seconds(10))
    }

    @Test func recombiningKeepsTheClock() {
        #expect(NavigationChain().clock is ContinuousClock)
        let clocked = chain.withClock(ManualClock())
        #expect(clocked.names == ["a", "b", "c"])
        #expect(clocked.defaultTimeout == .seconds(3))
        let recombined = [
            clocked.appending(NamedHandler("z")), clocked.prepending(NamedHandler("z")),
            clocked.inserting(NamedHandler("z"), before: "a"), clocked.removing(named: "a"),
            clocked.replacing(NamedHandler("a")), clocked.reordered(["c"]), clocked.withDefaultTimeout(.seconds(1)),
            clocked.withHandlers([]),
        ]
        #expect(recombined.allSatisfy { $0.clock is ManualClock })
        let configured = try? Configurator().navigationChain(clocked).navigationHandlers([NamedHandler("y")])
            .decisionTimeout(.seconds(2)).build()
        #expect(configured?.navigationChain.clock is ManualClock, "the configurator keeps the chain's clock")
    }
}

/// Timeouts run on a `ManualClock`: time moves only when a test advances it, once the
/// timers it moves are armed. A decision's time is the clock's reading when it came back.
@MainActor
@Suite("Navigation chain: async decisions and timeouts", .timeLimit(.minutes(1)))
struct NavigationChainAsyncTests {
    let host = TestHost()
    var context: NavigationContext { NavigationContext(host: host) }
    let action = NavigationAction(url: url("https://example.com/slow"), navigationType: .linkActivated)
    let clock = ManualClock()

    typealias Timed = (decision: NavigationDecision, elapsed: Duration)

    /// Starts deciding `action` on `chain` (on the test clock); the task returns the
    /// decision and the time it took on that clock.
    func deciding(_ chain: NavigationChain) -> Task<Timed, Never> {
        let chain = chain.withClock(clock), action = action, context = context, clock = clock
        let start = clock.now
        return Task { @MainActor in
            let decision = await chain.decide(action, context: context)
            return (decision, start.duration(to: clock.now))
        }
    }

    /// Waits until `count` sleepers (handlers, timers) wait on the test clock.
    func armed(_ count: Int, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let clock = clock
        try #require(await eventually("\(count) sleepers", sourceLocation: sourceLocation) { await clock.waitForSleepers(count) } != nil)
    }

    /// The decision of `task`, once it has come.
    func decided(_ task: Task<Timed, Never>, sourceLocation: SourceLocation = #_sourceLocation) async throws -> Timed {
        try #require(await eventually("a decision", sourceLocation: sourceLocation) { await task.value })
    }

    @Test func asyncHandlerDecidesAfterSuspending() async throws {
        let clock = self.clock
        let chain = NavigationChain([
            RecordingHandler("pass", answering: .pass),
            RecordingHandler("async") { _ in
                try? await clock.sleep(for: .milliseconds(50))
                return .decide(.allow)
            },
            RecordingHandler("after", answering: .decide(.cancel)),
        ])
        let deciding = deciding(chain)
        try await armed(2) // the handler and its timeout
        clock.advance(by: .milliseconds(50))
        let (decision, elapsed) = try await decided(deciding)
        #expect(decision == NavigationDecision(policy: .allow, handler: "async"))
        #expect(decision.timedOutHandler == nil)
        #expect(elapsed >= .milliseconds(50), "the chain waited for the handler's answer")
    }

    @Test func handlerSlowerThanItsTimeoutFailsClosed() async throws {
        let log = CallLog()
        let clock = self.clock
        let chain = NavigationChain([
            RecordingHandler("slow", log: log, timeout: .milliseconds(50)) { _ in
                try? await clock.sleep(for: .seconds(2))
                return .decide(.allow)
            },
            RecordingHandler("after", log: log, answering: .decide(.allow)),
        ])
        let deciding = deciding(chain)
        try await armed(2)
        clock.advance(by: .milliseconds(50))
        let (decision, elapsed) = try await decided(deciding)
        #expect(decision.policy == .cancel)
        #expect(decision.handler == "timeout")
        #expect(decision.handler == NavigationChain.timedOut)
        #expect(decision.timedOutHandler == "slow")
        #expect(elapsed < .seconds(1), "returned after \(elapsed), not at the timeout")
        #expect(elapsed >= .milliseconds(50))
        #expect(log.names == ["slow"], "handlers after a timed-out one are not consulted")
        clock.advance(by: .seconds(2)) // lets the slow handler finish
    }

    @Test func chainDefaultTimeoutAppliesWhenHandlerHasNone() async throws {
        let clock = self.clock
        let chain = NavigationChain([
            RecordingHandler("slow-default") { _ in
                try? await clock.sleep(for: .seconds(2))
                return .decide(.allow)
            },
        ], defaultTimeout: .milliseconds(50))
        let deciding = deciding(chain)
        try await armed(2)
        clock.advance(by: .milliseconds(50))
        let (decision, elapsed) = try await decided(deciding)
        #expect(decision == NavigationDecision(policy: .cancel, handler: "timeout", timedOutHandler: "slow-default"))
        #expect(elapsed < .seconds(1), "returned after \(elapsed)")
        #expect(elapsed >= .milliseconds(50))
        clock.advance(by: .seconds(2))
    }

    @Test func handlerTimeoutOverridesTheChainDefault() async throws {
        let clock = self.clock
        let chain = NavigationChain([
            RecordingHandler("patient", timeout: .seconds(5)) { _ in
                try? await clock.sleep(for: .milliseconds(200))
                return .decide(.allow)
            },
        ], defaultTimeout: .milliseconds(20))
        let deciding = deciding(chain)
        try await armed(2)
        clock.advance(by: .milliseconds(20)) // past the chain's default: its timer would fire here
        clock.advance(by: .milliseconds(180))
        let (decision, _) = try await decided(deciding)
        #expect(decision == NavigationDecision(policy: .allow, handler: "patient"))
    }

    @Test func configuratorDecisionTimeoutSetsTheChainDefault() async throws {
        let clock = self.clock
        let configuration = try Configurator()
            .navigationHandlers([
                RecordingHandler("slow") { _ in
                    try? await clock.sleep(for: .seconds(2))
                    return .decide(.allow)
                },
            ])
            .decisionTimeout(.milliseconds(50))
            .build()
        #expect(configuration.navigationChain.defaultTimeout == .milliseconds(50))
        let deciding = deciding(configuration.navigationChain)
        try await armed(2)
        clock.advance(by: .milliseconds(50))
        let (decision, elapsed) = try await decided(deciding)
        #expect(decision.timedOutHandler == "slow")
        #expect(elapsed < .seconds(1))
        clock.advance(by: .seconds(2))
    }

    @Test func lateAnswerAfterTimeoutIsIgnored() async throws {
        let finished = CallLog()
        let answered = Latch()
        let clock = self.clock
        let chain = NavigationChain([
            RecordingHandler("late", timeout: .milliseconds(30)) { _ in
                try? await clock.sleep(for: .milliseconds(120))
                finished.record("late")
                answered.open()
                return .decide(.allow)
            },
        ])
        let deciding = deciding(chain)
        try await armed(2)
        clock.advance(by: .milliseconds(30))
        let (decision, _) = try await decided(deciding)
        #expect(decision.handler == "timeout")
        // Let the late handler finish: its answer must not crash (a second resume) nor
        // change anything. It answers in the same main-actor job that opens the latch.
        clock.advance(by: .milliseconds(90))
        try #require(await eventually("the late answer") { await answered.wait() } != nil)
        #expect(finished.names == ["late"])
        #expect(decision.policy == .cancel)
    }

    @Test func independentDecisionsRunConcurrently() async throws {
        let clock = self.clock
        let chain = NavigationChain([
            RecordingHandler("sleepy") { _ in
                try? await clock.sleep(for: .milliseconds(200))
                return .decide(.allow)
            },
        ])
        let decisions = [deciding(chain), deciding(chain), deciding(chain)]
        // All three handlers and their timers wait at once: the decisions overlap.
        try await armed(6)
        clock.advance(by: .milliseconds(200))
        var results: [(decision: NavigationDecision, elapsed: Duration)] = []
        for deciding in decisions { results.append(try await decided(deciding)) }
        #expect(results.allSatisfy { $0.decision == NavigationDecision(policy: .allow, handler: "sleepy") })
        #expect(results.allSatisfy { $0.elapsed < .milliseconds(550) }, "three 200ms decisions overlapped")
    }
}
