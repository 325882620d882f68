import Foundation
import Testing
import Vitrine
import VitrineTesting

/// Alerts over a playing playlist, items out of their windows, and proof of play over many
/// turns, as the playback's actions (`PlaylistPlaybackTests` for turns and copies).
@Suite("Schedule: playlist playback, alerts and records")
struct PlaylistPlaybackAlertTests {
    typealias Player = PlaylistPlaybackTests.Player
    typealias Action = PlaylistPlayback.Action
    static let page0 = PlaylistPlaybackTests.page0, page1 = PlaylistPlaybackTests.page1, page2 = PlaylistPlaybackTests.page2
    static let fire = PlaylistPlaybackTests.alertPage
    static let flood = URL(string: "https://signage.example/flood")!

    static func answers(_ actions: [Action]) -> [RemoteReply] {
        actions.compactMap { if case .answerAlert(let reply) = $0 { reply } else { nil } }
    }

    static func alertSerial(_ actions: [Action]) -> Int? {
        actions.lazy.compactMap { if case .showAlert(_, let serial) = $0 { serial } else { nil } }.first
    }

    @Test func anAlertGoesOverEverythingAndIsAnsweredOnceFromItsDecision() throws {
        var player = Player(preload: true)
        player.firstShown()
        _ = player.advance(30) // item 1 preloads
        _ = player.advance(5)
        let shown = player.playback.alert(Self.fire, seconds: 60, at: player.now)
        // The preload is dropped, item 0's record ends, the alert page loads.
        #expect(shown.first == .cancelPreload)
        #expect(PlaylistPlaybackTests.records(shown) == [PlaylistPlaybackTests.record(0, Self.page0, .shown, player.start, 35)])
        #expect(shown.contains(.record(.native(action: .alertStarted, detail: Self.fire.absoluteString))))
        let serial = try #require(Self.alertSerial(shown))
        #expect(Self.answers(shown).isEmpty, "answered before its decision")
        // The dropped preload's late word, and the alert page's own load, are not a turn.
        #expect(player.playback.preloadEnded(1, Self.page1, .swapped, at: player.now) == [])
        #expect(player.loads(Self.fire) == [])
        #expect(player.playback.alertDecided(serial, reply: .success, at: player.now) == [.answerAlert(.success)])
        #expect(player.playback.alertDecided(serial, reply: .success, at: player.now) == [], "answered twice")
        // Turns wait while it is shown; at its end the playlist resumes.
        #expect(player.advance(59) == [])
        let ended = player.advance(1)
        #expect(ended.first == .record(.native(action: .alertEnded, detail: "expired")))
        #expect(ended.contains { if case .preload = $0 { true } else if case .load = $0 { true } else { false } })
        #expect(Self.answers(ended).isEmpty)
    }

    @Test func aReplacedAlertIsAnsweredOnceAndItsLateDecisionAnswersNothing() throws {
        var player = Player()
        player.firstShown()
        let first = try #require(Self.alertSerial(player.playback.alert(Self.fire, seconds: 60, at: player.now)))
        let replacing = player.playback.alert(Self.flood, seconds: 60, at: player.now)
        #expect(replacing.first == .answerAlert(.failure("replaced by a newer alert")))
        #expect(Self.answers(replacing).count == 1)
        let second = try #require(Self.alertSerial(replacing))
        #expect(second != first)
        // The first page's navigation was dropped for the second's: its (refused) decision
        // neither answers the second command nor ends the second alert.
        #expect(player.playback.alertDecided(first, reply: .failure("cancelled"), at: player.now) == [])
        #expect(player.playback.alert?.url == Self.flood)
        #expect(player.playback.alertDecided(second, reply: .success, at: player.now) == [.answerAlert(.success)])
        // Replacing an answered alert answers nothing more.
        let third = player.playback.alert(Self.fire, seconds: 60, at: player.now)
        #expect(Self.answers(third).isEmpty)
    }

    @Test func aRefusedAlertGivesTheScreenBackAtOnce() throws {
        var player = Player()
        player.firstShown()
        let serial = try #require(Self.alertSerial(player.playback.alert(Self.fire, seconds: 60, at: player.now)))
        let refused = player.playback.alertDecided(serial, reply: .failure("refused"), at: player.now)
        #expect(refused.first == .answerAlert(.failure("refused")))
        #expect(refused.contains(.record(.native(action: .alertEnded, detail: "refused"))))
        #expect(player.playback.alert == nil)
    }

    @Test func anAlertEndedOrClosedBeforeItsDecisionIsAnsweredThenAndOnlyThen() throws {
        var player = Player()
        player.firstShown()
        let serial = try #require(Self.alertSerial(player.playback.alert(Self.fire, seconds: 60, at: player.now)))
        let cleared = player.playback.clearAlert(at: player.now)
        #expect(Self.answers(cleared) == [.failure("the alert ended before it was shown")])
        #expect(player.playback.clearAlert(at: player.now) == [], "nothing to clear")
        #expect(player.playback.alertDecided(serial, reply: .success, at: player.now) == [])
        #expect(player.playback.closed() == [])

        var closing = Player()
        closing.firstShown()
        _ = closing.playback.alert(Self.fire, seconds: 60, at: closing.now)
        #expect(Self.answers(closing.playback.closed()) == [.failure("the kiosk's window closed")])
        #expect(closing.playback.closed() == [])
    }

    // MARK: Item windows

    @Test func anItemOutOfItsWindowIsSkippedWithARecordAndNoLoad() {
        // 12:00 in Berlin: item 1 plays only at night.
        let night = ItemWindow(from: TimeOfDay("01:00")!, until: TimeOfDay("02:00")!)
        var player = Player([PlaylistEntry(url: Self.page0, duration: .seconds(30)),
                             PlaylistEntry(url: Self.page1, duration: .seconds(30), window: night),
                             PlaylistEntry(url: Self.page2, duration: .seconds(30))], preload: true)
        player.firstShown()
        let turn = player.advance(30)
        #expect(turn == [.record(.proofOfPlay(PlaylistPlaybackTests.record(1, Self.page1, .skipped, player.now, 0))),
                         PlaylistPlaybackTests.native(.schedulePage, 2, Self.page2), .preload(item: 2, url: Self.page2)])
        #expect(!turn.contains(.preload(item: 1, url: Self.page1)))
    }

    // MARK: Proof of play

    /// A minute of turns of every kind, the adapter's part played by a driver that answers
    /// each action as the pages would: each turn ends in exactly one record.
    @Test func everyTurnEndsInOneRecord() {
        let night = ItemWindow(from: TimeOfDay("01:00")!, until: TimeOfDay("02:00")!)
        let page3 = URL(string: "https://signage.example/fourth")!
        var player = Player([PlaylistEntry(url: Self.page0, duration: .seconds(10)),   // live
                             PlaylistEntry(url: Self.page1, duration: .seconds(10)),   // down, kept copy
                             PlaylistEntry(url: Self.page2, duration: .seconds(10), window: night),
                             PlaylistEntry(url: page3, duration: .seconds(10))], preload: true) // down, no copy
        var records: [PlayRecord] = []
        var retries = 0
        func carryOut(_ actions: [Action]) {
            for action in actions {
                switch action {
                case .record(.proofOfPlay(let record)): records.append(record)
                case .record(.native(.retryLoad, _)): retries += 1
                case .preload(let item, let url):
                    carryOut(player.playback.preloadEnded(item, url, url == Self.page0 ? .swapped : .failed, at: player.now))
                case .preloadCopy(let item, let url): carryOut(player.playback.preloadEnded(item, url, .swapped, at: player.now))
                case .settle:
                    let url = player.playback.failedItemURL
                    carryOut(player.playback.settle(at: player.now, hasCopy: url == Self.page1, viewIsLoading: false))
                default: break
                }
            }
        }
        player.firstShown()
        for _ in 1...55 { carryOut(player.advance(1)) }
        carryOut(player.playback.stop(at: player.now))
        let turn = ["2 skipped", "3 failed", "1 stale", "0 shown"]
        #expect(records.map { "\($0.item) \($0.outcome.rawValue)" } == ["0 shown"] + turn + turn + ["1 stale"])
        #expect(records.map(\.seconds) == [10, 0, 0, 10, 10, 0, 0, 10, 10, 5])
        // The stale copy's live page was tried on its backoff (after 1, 2, 4 s) in each of its turns.
        #expect(retries == 3 + 3 + 2)
    }
}
