import Foundation
import Testing
import Vitrine
import VitrineTesting

@Suite("URL.isSamePage")
struct SamePageTests {
    @Test(arguments: [
        ("https://a.test", "https://a.test/"),                    // WebKit's spelling of a bare origin
        ("https://a.test?x=1", "https://a.test/?x=1"),            // …with a query too
        ("HTTPS://A.Test/p", "https://a.test/p"),                 // scheme and host in any case
        ("https://a.test:443/p", "https://a.test/p"),             // the default port
        ("https://a.test/p#top", "https://a.test/p"),             // the fragment only scrolls
        ("https://a.test/p?q=1#a", "https://a.test/p?q=1#b"),
        ("app://demo/index.html", "APP://demo/index.html#x"),
        ("file:///srv/page.html", "file:///srv/page.html#x"),
        ("about:blank", "ABOUT:blank"),
    ])
    func samePages(_ pair: (String, String)) {
        #expect(url(pair.0).isSamePage(as: url(pair.1)))
        #expect(url(pair.1).isSamePage(as: url(pair.0)))
    }

    @Test(arguments: [
        ("https://a.test/", "http://a.test/"),                    // another scheme
        ("https://a.test/", "https://b.test/"),
        ("https://a.test/", "https://a.test:8443/"),              // another port
        ("https://a.test/p", "https://a.test/p/"),                // a trailing slash is another path
        ("https://a.test/p", "https://a.test/P"),                 // paths are case-sensitive
        ("https://a.test/?slide=1", "https://a.test/?slide=2"),   // a query makes another page
        ("https://a.test/", "https://a.test/?"),
        ("https://a.test/", "https://a.test.evil/"),
        ("https://a.test/", "blob:https://a.test/uuid"),
        ("data:text/html,a", "data:text/html,b"),
        ("file:///srv/a.html", "file:///srv/b.html"),
        ("about:blank", "about:srcdoc"),
    ])
    func otherPages(_ pair: (String, String)) {
        #expect(!url(pair.0).isSamePage(as: url(pair.1)))
        #expect(!url(pair.1).isSamePage(as: url(pair.0)))
    }
}

@MainActor
@Suite("PendingLoads")
struct PendingLoadsTests {
    final class Answers {
        var outcomes: [LoadOutcome] = []
    }

    static let refusal = NavigationDecision(policy: .cancel, handler: "origin-allowlist")

    /// A refused bare origin is answered from its decision, which WebKit reports for the
    /// URL with its `/`: not left to time out.
    @Test func aBareOriginIsAnsweredByTheDecisionOnItsSlashedURL() {
        let loads = PendingLoads(timeout: .seconds(30), clock: ManualClock())
        let answers = Answers()
        loads.add(url("https://a.test")) { answers.outcomes.append($0) }
        loads.decided(url("https://a.test/"), Self.refusal)
        #expect(answers.outcomes == [.decided(Self.refusal)])
        #expect(loads.count == 0)
    }

    @Test func eachLoadIsAnsweredOnceByTheFirstDecisionOnItsPage() {
        let loads = PendingLoads(timeout: .seconds(30), clock: ManualClock())
        let first = Answers(), second = Answers(), other = Answers()
        loads.add(url("https://a.test/p")) { first.outcomes.append($0) }
        loads.add(url("https://a.test/p")) { second.outcomes.append($0) }
        loads.add(url("https://a.test/q")) { other.outcomes.append($0) }
        let allow = NavigationDecision(policy: .allow, handler: "default-allow")
        loads.decided(url("https://a.test/p#x"), allow)
        loads.decided(url("https://a.test/p"), Self.refusal)
        loads.decided(url("https://a.test/p"), allow) // nobody waits any more
        loads.abandonAll("closed")
        #expect(first.outcomes == [.decided(allow)])
        #expect(second.outcomes == [.decided(Self.refusal)])
        #expect(other.outcomes == [.abandoned(reason: "closed")])
    }

    /// A decision on a look-alike page (another query, a trailing slash, another host)
    /// never answers a load.
    @Test func lookAlikePagesDoNotAnswer() {
        let loads = PendingLoads(timeout: .seconds(30), clock: ManualClock())
        let answers = Answers()
        loads.add(url("https://a.test/menu?day=1")) { answers.outcomes.append($0) }
        for lookAlike in ["https://a.test/menu?day=2", "https://a.test/menu/?day=1", "https://a.test.evil/menu?day=1",
                          "http://a.test/menu?day=1"] {
            loads.decided(url(lookAlike), NavigationDecision(policy: .allow, handler: "default-allow"))
        }
        #expect(answers.outcomes.isEmpty)
        #expect(loads.count == 1)
    }

    @Test func aDecisionThatNeverComesIsAnsweredAtTheTimeout() async {
        let clock = ManualClock()
        let loads = PendingLoads(timeout: .seconds(35), clock: clock)
        let answers = Answers()
        loads.add(url("https://a.test/")) { answers.outcomes.append($0) }
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(34))
        await Task.yield()
        #expect(answers.outcomes.isEmpty)
        clock.advance(by: .seconds(1))
        for _ in 0..<1000 where answers.outcomes.isEmpty { await Task.yield() } // the woken timer's turn
        #expect(answers.outcomes == [.abandoned(reason: "no navigation decision within 35.0 s")])
        loads.decided(url("https://a.test/"), Self.refusal) // too late: answered once only
        #expect(answers.outcomes.count == 1)
    }

    @Test func anAnsweredLoadsTimerIsCancelled() async {
        let clock = ManualClock()
        let loads = PendingLoads(timeout: .seconds(35), clock: clock)
        let answers = Answers()
        loads.add(url("https://a.test/")) { answers.outcomes.append($0) }
        await clock.waitForSleepers(1)
        loads.decided(url("https://a.test/"), Self.refusal)
        for _ in 0..<1000 where clock.sleeperCount > 0 { await Task.yield() } // the cancelled timer's turn
        clock.advance(by: .seconds(60))
        #expect(answers.outcomes == [.decided(Self.refusal)])
    }

    /// The view going away answers every waiting load: fail closed, never a hang.
    @Test func loadsAreAbandonedWhenTheyGo() {
        let answers = Answers()
        do {
            let loads = PendingLoads(timeout: .seconds(30), clock: ManualClock())
            loads.add(url("https://a.test/")) { answers.outcomes.append($0) }
            loads.add(url("https://b.test/")) { answers.outcomes.append($0) }
        }
        #expect(answers.outcomes == [.abandoned(reason: "the view is gone"), .abandoned(reason: "the view is gone")])
    }

    @Test func outcomesAnswerRemoteCommands() {
        let target = url("https://a.test")
        #expect(LoadOutcome.decided(NavigationDecision(policy: .allow, handler: "default-allow")).reply(loading: target) == .success)
        #expect(LoadOutcome.decided(Self.refusal).reply(loading: target)
                == .failure("refused by the navigation chain (origin-allowlist): https://a.test"))
        #expect(LoadOutcome.decided(NavigationDecision(policy: .download, handler: "download")).reply(loading: target).ok == false)
        #expect(LoadOutcome.abandoned(reason: "the window is closed").reply(loading: target)
                == .failure("https://a.test was not loaded: the window is closed"))
    }
}
