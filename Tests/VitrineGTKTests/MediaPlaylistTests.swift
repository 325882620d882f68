import CWebKitGTK
import Foundation
import Testing
import Vitrine
@testable import VitrineGTK
import VitrineTestingGTK

extension WebKitTests {
    /// A playlist's media items in a real window: a generated WebM clip fills the window,
    /// plays with no tap (signage allows autoplay) and its end turns the playlist; a looping
    /// one plays again until its duration is over; an HTML page whose own video ends does not
    /// end its turn, and its scripts cannot reach the media handler (their claims change
    /// nothing). Clip and page come from a loopback HTTP server, as from a CMS: WebKitGTK's
    /// media player loads http(s), blob and file URLs only (never `app://`).
    @Suite(.serialized) @MainActor
    struct MediaPlaylistTests {
        private static let page = """
            <!doctype html><title>page</title><body>
            <video src="clip.webm" autoplay muted></video>
            <script>
            // WebKit's own handler objects (the SDK shadows `messageHandlers` in the page).
            const getter = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(window.webkit), 'messageHandlers');
            const native = getter.get.call(window.webkit);
            document.body.dataset.handler = typeof native['vitrine-media'];
            // A page that claims its media ended anyway, through the SDK's handlers.
            const claimEnded = () => { try { window.webkit.messageHandlers['vitrine-media'].postMessage('ended'); } catch (e) {} };
            claimEnded();
            document.querySelector('video').addEventListener('ended', () => { claimEnded(); document.body.dataset.ended = 'yes'; });
            </script>
            """

        private func harness(_ playlist: (URL) -> [PlaylistEntry], clipSeconds: Int) throws -> (WebTestHarness, LoopbackHTTPServer) {
            let server = try LoopbackHTTPServer(pages: ["page.html": Self.page])
            try TestMedia.video(into: server.directory, seconds: clipSeconds)
            let schedule = Schedule(playlist: playlist(server.url("")))
            let harness = try WebTestHarness(pages: ["unused.html": ""]) { $0.preference(\.schedule, schedule) }
            return (harness, server)
        }

        private func played(_ item: Int) -> @Sendable (ContainerEvent) -> Bool {
            { if case let .proofOfPlay(record) = $0 { return record.item == item }; return false }
        }

        private func finished(_ url: URL) -> @Sendable (ContainerEvent) -> Bool {
            { if case let .load(.finished, loaded, _, _, _) = $0 { return loaded == url.absoluteString }; return false }
        }

        @Test func aVideoItemPlaysFullScreenAndItsEndTurnsThePlaylist() async throws {
            let (harness, server) = try harness({ base in [
                PlaylistEntry(url: base.appendingPathComponent("clip.webm"), duration: MediaPlayback.longestUnreported, media: MediaPlayback()),
                PlaylistEntry(url: base.appendingPathComponent("page.html"), duration: .seconds(60)),
            ] }, clipSeconds: 2)
            defer { harness.close(); server.stop() }
            let clip = server.url("clip.webm"), page = server.url("page.html")
            harness.container.start()
            try await harness.fixture.next(where: finished(clip))
            let filled = await harness.container.valueInPage("""
                (() => { const v = document.querySelector('video');
                         return v && !v.controls && !v.paused && v.getBoundingClientRect().width === window.innerWidth && 'playing'; })()
                """)
            #expect(filled == "playing", "the clip fills the window, without controls, playing by itself")
            let record = try await harness.fixture.next(where: played(0), timeout: .seconds(30))
            guard case let .proofOfPlay(shown) = record else { return }
            #expect(shown.outcome == .shown)
            #expect(shown.url == clip.absoluteString)
            #expect(shown.seconds >= 1.5 && shown.seconds < 15, "on screen for the clip's length (2 s), not its 6-hour cap: \(shown.seconds) s")
            // The page's load finishes before the clip's record is written (it ends the turn).
            #expect(await TestLoop.wait { harness.events.events.contains(where: finished(page)) }, "the playlist turned to the page")
        }

        @Test func aPagesOwnVideoNeitherEndsItsTurnNorReachesTheHandler() async throws {
            let (harness, server) = try harness({ base in [
                PlaylistEntry(url: base.appendingPathComponent("page.html"), duration: .seconds(60)),
                PlaylistEntry(url: base.appendingPathComponent("clip.webm"), duration: .seconds(60), media: MediaPlayback()),
            ] }, clipSeconds: 1)
            defer { harness.close(); server.stop() }
            harness.container.start()
            try await harness.fixture.next(where: finished(server.url("page.html")))
            let handler = await harness.container.valueInPage("document.body.dataset.handler")
            #expect(handler?.stringValue == "undefined", "the media handler is in Vitrine's isolated world only: \(String(describing: handler))")
            #expect(await harness.container.valueInPage("document.body.dataset.ended") == "yes", "the page's own video ended")
            try await harness.fixture.roundTrip()
            #expect(!harness.events.events.contains(where: played(0)), "the page's turn goes on: \(harness.events.events)")
            #expect(harness.container.currentURL?.lastPathComponent == "page.html")
        }

        @Test func aLoopingVideoPlaysAgainUntilItsDuration() async throws {
            let (harness, server) = try harness({ base in [
                PlaylistEntry(url: base.appendingPathComponent("clip.webm"), duration: .seconds(4), media: MediaPlayback(loops: true)),
                PlaylistEntry(url: base.appendingPathComponent("page.html"), duration: .seconds(60)),
            ] }, clipSeconds: 1)
            defer { harness.close(); server.stop() }
            harness.container.start()
            try await harness.fixture.next(where: finished(server.url("clip.webm")))
            _ = try await harness.container.evaluate("""
                document.querySelector('video').addEventListener('ended', () => {
                  document.body.dataset.ends = String(Number(document.body.dataset.ends || 0) + 1); }), true
                """)
            #expect(await harness.container.valueInPage("Number(document.body.dataset.ends) >= 2 && 'again'") == "again",
                    "the 1-s clip ended, played again and ended again")
            let record = try await harness.fixture.next(where: played(0), timeout: .seconds(30))
            guard case let .proofOfPlay(shown) = record else { return }
            #expect(shown.seconds >= 3.5, "it stays its duration (4 s), not the clip's length: \(shown.seconds) s")
        }
    }
}
