import Foundation
import Testing
import Vitrine

/// `[schedule] preload` as a value: the hidden item is swapped in only after its own load
/// finished and it painted; every other end fails it, and nothing after its end counts.
@Suite("Preload transition: swap only after paint")
struct PreloadTransitionTests {
    static let next = URL(string: "https://signage.example/promo?week=48")!

    @Test func swapsOnlyAfterItsOwnLoadFinishedAndItPainted() {
        var transition = PreloadTransition(item: 1, url: Self.next)
        // A finish before its load started (the blank view's) is not the item's.
        #expect(transition.loadFinished() == .wait)
        #expect(transition.painted() == .wait)
        // Another document starting is not the item either.
        #expect(transition.loadStarted(URL(string: "https://signage.example/other")) == .wait)
        #expect(transition.loadFinished() == .wait)
        #expect(transition.loadStarted(URL(string: "https://signage.example/promo?week=48#top")) == .wait)
        #expect(transition.phase == .loading(started: true))
        // Loaded is not enough: a frame first.
        #expect(transition.loadFinished() == .awaitPaint)
        #expect(transition.phase == .painting)
        #expect(transition.painted() == .swap)
        #expect(transition.isOver)
        // After the swap nothing counts again.
        #expect(transition.painted() == .wait)
        #expect(transition.loadFailed("late") == .wait)
        #expect(transition.timedOut(after: .seconds(30)) == .wait)
        #expect(transition.phase == .swapped)
    }

    @Test func aFailedLoadFailsItAndItsErrorPageNeverSwapsIn() {
        var transition = PreloadTransition(item: 2, url: Self.next)
        _ = transition.loadStarted(Self.next)
        #expect(transition.loadFailed("Connection refused") == .fail("Connection refused"))
        // The hidden view's error page then loads and paints: still failed.
        #expect(transition.loadStarted(Self.next) == .wait)
        #expect(transition.loadFinished() == .wait)
        #expect(transition.painted() == .wait)
        #expect(transition.phase == .failed("Connection refused"))
    }

    @Test func refusalNoFrameAndTimeoutEachFailIt() {
        var refused = PreloadTransition(item: 0, url: Self.next)
        #expect(refused.refused("origin-allowlist") == .fail("refused: origin-allowlist"))
        #expect(refused.loadStarted(Self.next) == .wait && refused.loadFinished() == .wait)

        var noFrame = PreloadTransition(item: 0, url: Self.next)
        _ = noFrame.loadStarted(Self.next)
        #expect(noFrame.paintFailed("early") == .wait) // not painting yet
        #expect(noFrame.loadFinished() == .awaitPaint)
        #expect(noFrame.paintFailed("the web process went") == .fail("no frame: the web process went"))
        #expect(noFrame.painted() == .wait)

        var hung = PreloadTransition(item: 0, url: Self.next)
        _ = hung.loadStarted(Self.next)
        #expect(hung.timedOut(after: .seconds(30)) == .fail("not painted within 30 s"))
        #expect(hung.loadFinished() == .wait)
        // A load failure after painting began is not reported twice.
        var painting = PreloadTransition(item: 0, url: Self.next)
        _ = painting.loadStarted(Self.next)
        _ = painting.loadFinished()
        #expect(painting.loadFailed("late") == .wait)
        #expect(painting.painted() == .swap)
    }
}
