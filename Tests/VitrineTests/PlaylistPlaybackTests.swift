import Foundation
import Testing
import Vitrine
import VitrineTesting

/// A playlist's turns as a state machine with no view and no timer: what the adapter is
/// told to do for each report (a load event, a preload's end, a command), with time moved
/// by hand. What WebKit does with the actions is the window suites' part.
@Suite("Schedule: playlist playback")
struct PlaylistPlaybackTests {
    typealias Action = PlaylistPlayback.Action
    static let page0 = URL(string: "https://signage.example/menu")!
    static let page1 = URL(string: "https://signage.example/offers")!
    static let page2 = URL(string: "https://signage.example/third")!
    static let alertPage = URL(string: "https://signage.example/evacuate")!
    static let errorPage = URL(string: "https://signage.example/offers")! // WebKit shows it at the failed address

    /// A playback with its own manual clock; reports are made at the clock's time.
    struct Player {
        let clock = ManualClock()
        let start = ScheduleTests.at("2026-03-27T12:00:00+01:00")
        var playback: PlaylistPlayback

        init(_ entries: [PlaylistEntry], preload: Bool = false) {
            // No jitter: the stale page's retries come after 1 s, then 2 s.
            playback = PlaylistPlayback(schedule: Schedule(playlist: entries), calendar: ScheduleTests.berlin,
                                        now: start, retries: RetrySchedule(random: { 0.5 }))
            playback.canPreload = preload
        }

        init(preload: Bool = false) {
            self.init([PlaylistEntry(url: page0, duration: .seconds(30)), PlaylistEntry(url: page1, duration: .seconds(30)),
                       PlaylistEntry(url: page2, duration: .seconds(30))], preload: preload)
        }

        var now: Date { start.addingTimeInterval(Double(clock.now.offset.components.seconds)) }

        mutating func advance(_ seconds: Int) -> [Action] {
            clock.advance(by: .seconds(seconds))
            return playback.tick(at: now)
        }

        /// Item `item` loads in the view and finishes.
        mutating func loads(_ url: URL) -> [Action] {
            playback.viewLoadChanged(.started, url, at: now, hasCopy: false)
                + playback.viewLoadChanged(.committed, url, at: now, hasCopy: false)
                + playback.viewLoadChanged(.finished, url, at: now, hasCopy: false)
        }

        /// The first item on screen, live, in the view (nothing was on screen to preload under).
        mutating func firstShown() {
            let preload = playback.canPreload
            playback.canPreload = false
            _ = playback.tick(at: now)
            _ = loads(page0)
            playback.canPreload = preload
        }
    }

    static func native(_ action: ContainerEvent.NativeAction, _ item: Int, _ url: URL) -> Action {
        .record(.native(action: action, detail: "\(item) \(url.absoluteString)"))
    }

    static func records(_ actions: [Action]) -> [PlayRecord] {
        actions.compactMap { if case .record(.proofOfPlay(let record)) = $0 { record } else { nil } }
    }

    static func record(_ item: Int, _ url: URL, _ outcome: PlayRecord.Outcome, _ from: Date, _ seconds: Double) -> PlayRecord {
        PlayRecord(item: item, url: url.absoluteString, start: from, end: from.addingTimeInterval(seconds), outcome: outcome)
    }

    // MARK: Live turns

    @Test func aTurnIsShownWhenItsOwnLoadFinishesAndEndsInOneRecord() {
        var player = Player()
        #expect(player.playback.tick(at: player.now) == [Self.native(.schedulePage, 0, Self.page0), .cancelPreload,
                                                          .load(item: 0, url: Self.page0)])
        // The page before's end, or another document's, is not the item.
        #expect(player.playback.viewLoadChanged(.finished, Self.page0, at: player.now, hasCopy: false) == [])
        #expect(player.playback.viewLoadChanged(.started, Self.page2, at: player.now, hasCopy: false) == [])
        #expect(player.playback.viewLoadChanged(.finished, Self.page2, at: player.now, hasCopy: false) == [])
        #expect(player.playback.itemOnScreen == nil)
        #expect(player.loads(Self.page0) == [Self.native(.schedulePageShown, 0, Self.page0), .keep(url: Self.page0, isMedia: false)])
        #expect(player.playback.itemOnScreen == 0)
        #expect(player.advance(29) == [])
        #expect(player.advance(1) == [Self.native(.schedulePage, 1, Self.page1), .cancelPreload, .load(item: 1, url: Self.page1)])
        // Item 0 stays on screen, and its record open, until item 1 is shown.
        #expect(player.advance(2) == [])
        let shown = player.loads(Self.page1)
        #expect(Self.records(shown) == [Self.record(0, Self.page0, .shown, player.start, 32)])
        #expect(shown.contains(Self.native(.schedulePageShown, 1, Self.page1)))
        // The runner stops: the open record ends, once.
        #expect(Self.records(player.playback.stop(at: player.now)) == [Self.record(1, Self.page1, .shown, player.now, 0)])
        #expect(Self.records(player.playback.stop(at: player.now)) == [])
    }

    @Test func aPreloadedTurnIsShownOnceSwappedInAndTheViewsEventsAreNotIt() {
        var player = Player(preload: true)
        player.firstShown()
        #expect(player.advance(30) == [Self.native(.schedulePage, 1, Self.page1), .preload(item: 1, url: Self.page1)])
        // The view on screen reloading is not the preloaded item.
        #expect(player.loads(Self.page1) == [])
        // A stale report (another item, another address) changes nothing.
        #expect(player.playback.preloadEnded(2, Self.page2, .swapped, at: player.now) == [])
        #expect(player.playback.preloadEnded(1, Self.page2, .swapped, at: player.now) == [])
        let swapped = player.playback.preloadEnded(1, Self.page1, .swapped, at: player.now)
        #expect(Self.records(swapped) == [Self.record(0, Self.page0, .shown, player.start, 30)])
        #expect(swapped.last == .keep(url: Self.page1, isMedia: false))
        #expect(player.playback.preloadEnded(1, Self.page1, .swapped, at: player.now) == [], "told twice")
    }

    // MARK: Failures

    @Test func aFailedPageIsSkippedAtOnce() {
        var player = Player()
        player.firstShown()
        _ = player.advance(30)
        _ = player.playback.viewLoadChanged(.started, Self.page1, at: player.now, hasCopy: false)
        #expect(player.playback.viewLoadChanged(.failed, Self.page1, at: player.now, hasCopy: false)
                == [Self.native(.schedulePageFailed, 1, Self.page1), .settle])
        #expect(player.playback.failedItemURL == Self.page1)
        // Settled at the same instant: no copy, so the failed turn ends and the next begins.
        let settled = player.playback.settle(at: player.now, hasCopy: false, viewIsLoading: true)
        #expect(settled == [.record(.proofOfPlay(Self.record(1, Self.page1, .failed, player.now, 0))),
                            Self.native(.schedulePage, 2, Self.page2), .cancelPreload, .load(item: 2, url: Self.page2)])
        #expect(player.playback.settle(at: player.now, hasCopy: false, viewIsLoading: false) == [], "settled twice")
        // Item 0 is still on screen: its record closes when item 2 is shown.
        #expect(Self.records(player.loads(Self.page2)) == [Self.record(0, Self.page0, .shown, player.start, 30)])
    }

    @Test func aRefusedPageFailsLikeAFailedOneAndOnlyItsOwnRefusalCounts() {
        var player = Player()
        player.firstShown()
        _ = player.advance(30)
        #expect(player.playback.refused(1, Self.page2, at: player.now) == [])
        #expect(player.playback.refused(0, Self.page1, at: player.now) == [])
        #expect(player.playback.refused(1, Self.page1, at: player.now) == [Self.native(.schedulePageFailed, 1, Self.page1), .settle])
    }

    /// The fault: the hidden view's failure ends the turn at once. Whatever that view does
    /// next (its error page, its retries) is never waited for nor counted.
    @Test func aFailedPreloadEndsItsTurnAtOnce() {
        var player = Player(preload: true)
        player.firstShown()
        _ = player.advance(30)
        #expect(player.playback.preloadEnded(1, Self.page1, .failed, at: player.now)
                == [Self.native(.schedulePageFailed, 1, Self.page1), .settle])
        let settled = player.playback.settle(at: player.now, hasCopy: false, viewIsLoading: false)
        #expect(settled == [.record(.proofOfPlay(Self.record(1, Self.page1, .failed, player.now, 0))),
                            Self.native(.schedulePage, 2, Self.page2), .preload(item: 2, url: Self.page2)])
        // A late word of the failed item is not it.
        #expect(player.playback.preloadEnded(1, Self.page1, .swapped, at: player.now) == [])
        let swapped = player.playback.preloadEnded(2, Self.page2, .swapped, at: player.now)
        #expect(Self.records(swapped) == [Self.record(0, Self.page0, .shown, player.start, 30)],
                "item 0 held for its own 30 s only")
    }

    @Test func whenEveryOtherItemFailsThePageOnScreenStaysForAnotherTurn() {
        var player = Player([PlaylistEntry(url: Self.page0, duration: .seconds(30)),
                             PlaylistEntry(url: Self.page1, duration: .seconds(30))], preload: true)
        player.firstShown()
        _ = player.advance(30)
        _ = player.playback.preloadEnded(1, Self.page1, .failed, at: player.now)
        #expect(player.playback.settle(at: player.now, hasCopy: false, viewIsLoading: false)
                == [.record(.proofOfPlay(Self.record(1, Self.page1, .failed, player.now, 0)))])
        #expect(player.playback.itemOnScreen == 0)
        #expect(player.advance(30) == [Self.native(.schedulePage, 1, Self.page1), .preload(item: 1, url: Self.page1)])
    }

    // MARK: Kept copies

    @Test func aFailedPageWithACopyShowsItAfterTheErrorPageAndItsLivePageIsRetriedUntilItRecovers() {
        var player = Player()
        player.firstShown()
        _ = player.advance(30)
        _ = player.playback.viewLoadChanged(.started, Self.page1, at: player.now, hasCopy: true)
        _ = player.playback.viewLoadChanged(.failed, Self.page1, at: player.now, hasCopy: true)
        // The error page loads in the view: WebKit would drop a copy loaded before its end.
        #expect(player.playback.settle(at: player.now, hasCopy: true, viewIsLoading: true) == [])
        #expect(player.playback.viewLoadChanged(.started, Self.errorPage, at: player.now, hasCopy: true) == [])
        #expect(player.playback.viewLoadChanged(.finished, Self.errorPage, at: player.now, hasCopy: true)
                == [.showCopy(item: 1, url: Self.page1)])
        let stale = player.playback.copyShown(1, Self.page1, true, at: player.now)
        #expect(stale == [.record(.proofOfPlay(Self.record(0, Self.page0, .shown, player.start, 30))),
                          Self.native(.schedulePageStale, 1, Self.page1),
                          .record(.retry(1, of: Self.page1, in: .seconds(1), because: .stale))])
        #expect(player.playback.nextDate(after: player.now) == player.now.addingTimeInterval(1))
        // The live page again after 1 s; it fails, the copy stays, the next try is in 2 s.
        #expect(player.advance(1) == [.record(.retryLoad(1, of: Self.page1, trigger: .backoff)),
                                      Self.native(.schedulePage, 1, Self.page1), .cancelPreload, .load(item: 1, url: Self.page1)])
        _ = player.playback.viewLoadChanged(.started, Self.page1, at: player.now, hasCopy: true)
        #expect(player.playback.viewLoadChanged(.failed, Self.page1, at: player.now, hasCopy: true)
                == [.record(.retry(2, of: Self.page1, in: .seconds(2), because: .stale))])
        #expect(player.playback.itemOnScreen == 1)
        #expect(player.advance(1) == [])
        #expect(player.advance(1).first == .record(.retryLoad(2, of: Self.page1, trigger: .backoff)))
        // Back: the stale record ends, the live one opens.
        let recovered = player.loads(Self.page1)
        #expect(recovered.first == .record(.recovered(Self.page1)))
        #expect(Self.records(recovered) == [Self.record(1, Self.page1, .stale, player.start.addingTimeInterval(30), 3)])
        #expect(recovered.contains(Self.native(.schedulePageShown, 1, Self.page1)))
        #expect(player.playback.nextDate(after: player.now) == player.start.addingTimeInterval(63), "its own 30 s from now")
    }

    /// With preload the copy loads out of sight like a live page and is swapped in only once
    /// it painted (the adapter's `preloadEnded(.swapped)`); never in the view on screen.
    @Test func aPreloadedCopyIsSwappedInNotShownInTheView() {
        var player = Player(preload: true)
        player.firstShown()
        _ = player.advance(30)
        _ = player.playback.preloadEnded(1, Self.page1, .failed, at: player.now)
        #expect(player.playback.settle(at: player.now, hasCopy: true, viewIsLoading: false) == [.preloadCopy(item: 1, url: Self.page1)])
        #expect(player.playback.itemOnScreen == 0, "item 0 stays until the copy has painted")
        // The view on screen's loads are not the copy.
        #expect(player.loads(Self.page0) == [])
        let swapped = player.playback.preloadEnded(1, Self.page1, .swapped, at: player.now)
        #expect(swapped == [.record(.proofOfPlay(Self.record(0, Self.page0, .shown, player.start, 30))),
                            Self.native(.schedulePageStale, 1, Self.page1),
                            .record(.retry(1, of: Self.page1, in: .seconds(1), because: .stale))])
        // Its live retry is preloaded too; failing, it leaves the copy on screen.
        #expect(player.advance(1) == [.record(.retryLoad(1, of: Self.page1, trigger: .backoff)),
                                      Self.native(.schedulePage, 1, Self.page1), .preload(item: 1, url: Self.page1)])
        #expect(player.playback.preloadEnded(1, Self.page1, .failed, at: player.now)
                == [.record(.retry(2, of: Self.page1, in: .seconds(2), because: .stale))])
        #expect(player.playback.itemOnScreen == 1)
    }

    @Test func aCopyThatCannotBeShownFailsItsTurn() {
        var player = Player(preload: true)
        player.firstShown()
        _ = player.advance(30)
        _ = player.playback.preloadEnded(1, Self.page1, .failed, at: player.now)
        _ = player.playback.settle(at: player.now, hasCopy: true, viewIsLoading: false)
        #expect(player.playback.preloadEnded(1, Self.page1, .failed, at: player.now)
                == [.record(.proofOfPlay(Self.record(1, Self.page1, .failed, player.now, 0))),
                    Self.native(.schedulePage, 2, Self.page2), .preload(item: 2, url: Self.page2)])
        var inView = Player()
        inView.firstShown()
        _ = inView.advance(30)
        _ = inView.playback.viewLoadChanged(.started, Self.page1, at: inView.now, hasCopy: true)
        _ = inView.playback.viewLoadChanged(.failed, Self.page1, at: inView.now, hasCopy: true)
        #expect(inView.playback.settle(at: inView.now, hasCopy: true, viewIsLoading: false) == [.showCopy(item: 1, url: Self.page1)])
        #expect(Self.records(inView.playback.copyShown(1, Self.page1, false, at: inView.now))
                == [Self.record(1, Self.page1, .failed, inView.now, 0)])
    }

    @Test func aLivePageWhoseReloadFailsGoesStaleWhenItHasACopy() {
        var player = Player()
        player.firstShown()
        #expect(player.playback.viewLoadChanged(.failed, Self.page0, at: player.now, hasCopy: false) == [])
        #expect(player.playback.viewLoadChanged(.failed, Self.page0, at: player.now, hasCopy: true)
                == [Self.native(.schedulePageFailed, 0, Self.page0), .settle])
    }

    /// Abuse: the page on screen reloads itself over and over while its server is down. One
    /// failure, one copy; the burst is not a hundred turns.
    @Test func aBurstOfFailedReloadsIsOneFailure() {
        var player = Player()
        player.firstShown()
        #expect(player.playback.viewLoadChanged(.failed, Self.page0, at: player.now, hasCopy: true)
                == [Self.native(.schedulePageFailed, 0, Self.page0), .settle])
        for _ in 0..<100 {
            #expect(player.playback.viewLoadChanged(.failed, Self.page0, at: player.now, hasCopy: true) == [])
        }
        #expect(player.playback.settle(at: player.now, hasCopy: true, viewIsLoading: false) == [.showCopy(item: 0, url: Self.page0)])
        let stale = player.playback.copyShown(0, Self.page0, true, at: player.now)
        #expect(Self.records(stale) == [Self.record(0, Self.page0, .shown, player.start, 0)])
        // The copy on screen failing to reload is not a new failure either.
        #expect(player.playback.viewLoadChanged(.failed, Self.page0, at: player.now, hasCopy: true) == [])
    }
}
