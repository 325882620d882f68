import CWebKitGTK
import Foundation
import Testing
import Vitrine
@testable import VitrineGTK
import VitrineTestingGTK

extension WebKitTests {
    /// `[schedule] preload` with items that cannot be reached: a failed preload ends its
    /// turn at once (the hidden view's error page and its retries are not waited for), and
    /// a kept copy shown instead is loaded out of sight and swapped in only once it has
    /// painted, image included. Servers are real and stopped for real; the window's pixels
    /// are read back from the X server at every turn of the main loop.
    @Suite @MainActor
    struct PlaylistTurnTests {
        typealias Preload = PreloadWindowTests

        func native(_ action: ContainerEvent.NativeAction, _ detail: String) -> @Sendable (ContainerEvent) -> Bool {
            { if case let .native(name, text) = $0 { return name == action && text == detail }; return false }
        }

        func kiosk(_ playlist: [PlaylistEntry], allowing other: URL, appID: String? = nil) throws -> ContainerFixture {
            var schedule = Schedule(playlist: playlist)
            schedule.preload = true
            var configurator = ConfiguratorFactory.make(for: .kiosk).startURL(playlist[0].url).fullscreen(false)
                .allowOrigin(try #require(Origin(other))).preference(\.schedule, schedule)
            if let appID { configurator = configurator.preference(\.applicationID, appID) }
            return try ContainerFixture(configurator)
        }

        /// Red, then an item whose server is gone, then green: the unreachable item's turn
        /// fails as soon as its hidden load fails, before its error page's first retry.
        @Test func aFailedPreloadSkipsItsTurnAtOnce() async throws {
            let server = try LoopbackHTTPServer(pages: ["red.html": Preload.page("#ff0000"), "green.html": Preload.page("#00ff00")])
            defer { server.stop() }
            let gone = try LoopbackHTTPServer(pages: ["item.html": Preload.page("#0000ff")])
            let unreachable = gone.url("item.html")
            gone.stop()
            let red = server.url("red.html"), green = server.url("green.html")
            let fixture = try kiosk([PlaylistEntry(url: red, duration: .milliseconds(300)),
                                     PlaylistEntry(url: unreachable, duration: .seconds(60)),
                                     PlaylistEntry(url: green, duration: .seconds(60))], allowing: unreachable)
            defer { fixture.close() }
            fixture.container.start()
            try await fixture.next(where: native(.schedulePageFailed, "1 \(unreachable.absoluteString)"))
            try await fixture.next(where: native(.schedulePageShown, "2 \(green.absoluteString)"))
            let events = fixture.log.events
            let failed = try #require(events.firstIndex(where: native(.schedulePageFailed, "1 \(unreachable.absoluteString)")))
            let next = try #require(events.firstIndex(where: native(.schedulePage, "2 \(green.absoluteString)")))
            let greenShown = try #require(events.firstIndex(where: native(.schedulePageShown, "2 \(green.absoluteString)")))
            #expect(failed < next)
            // The hidden view's error page is never waited for: it has not finished loading, nor
            // counted down and tried again, before green's turn began; and never after, as the
            // failed view is gone.
            let errorPageLoaded = events.firstIndex { if case let .load(.finished, url, _, _, _) = $0 { return url == unreachable.absoluteString }; return false }
            #expect(errorPageLoaded == nil || errorPageLoaded! > next, "green's turn waited for the error page")
            #expect(!events.contains { if case let .native(.retryLoad, detail) = $0 { return detail.contains(unreachable.absoluteString) }; return false },
                    "the failed item's hidden view tried again")
            // Red stays on screen until green is: its one record ends right then, and no other
            // item's turn came between (red was held for its own duration, then green's came).
            let redRecord = try #require(events.firstIndex {
                if case let .proofOfPlay(record) = $0 { return record.item == 0 && record.outcome == .shown }; return false
            })
            #expect(redRecord > next && redRecord < greenShown)
            #expect(!events[failed..<greenShown].contains { if case let .native(.schedulePage, detail) = $0 { return detail.hasPrefix("0 ") }; return false },
                    "red's turn came again before green was shown")
            // Its proof of play: failed, with no time on screen.
            #expect(events.contains {
                if case let .proofOfPlay(record) = $0 { return record.item == 1 && record.outcome == .failed && record.seconds == 0 }
                return false
            })
            // The window closes: green's turn, still open, ends in its record then.
            fixture.close()
            #expect(await TestLoop.wait { fixture.log.events.contains {
                if case let .proofOfPlay(record) = $0 { return record.item == 2 && record.outcome == .shown }; return false
            } }, "the turn on screen at close has no record")
        }

        /// A page whose picture covers its blue background: a large PNG (decoded apart from
        /// the page's own paint, as large images are), green.
        static func picturePage(in server: LoopbackHTTPServer) throws -> String {
            let pixbuf = try #require(gdk_pixbuf_new(GDK_COLORSPACE_RGB, 0, 8, 3000, 3000))
            defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
            gdk_pixbuf_fill(pixbuf, 0x00FF_00FF)
            var error: UnsafeMutablePointer<GError>?
            let path = server.directory.appendingPathComponent("picture.png").path
            _ = gdk_pixbuf_savev(pixbuf, path, "png", nil, nil, &error)
            #expect(error == nil)
            return "<!doctype html><title>picture</title><body style=\"margin:0;background:#0000ff\">"
                + "<img src=\"picture.png\" style=\"display:block;width:100vw;height:100vh\"></body>"
        }

        /// A kept copy with a picture, shown when its server has gone: loaded out of sight
        /// and swapped in only once painted, picture included. The screen shows the item
        /// before it, then the picture; never the copy's background alone.
        @Test func aPreloadedCopyIsSwappedInOnlyOnceItsPictureHasPainted() async throws {
            let appID = KeptCopies.uniqueAppID()
            defer { try? FileManager.default.removeItem(at: KeptCopies.dataFolder(appID)) }
            let server = try LoopbackHTTPServer(pages: ["red.html": Preload.page("#ff0000")])
            defer { server.stop() }
            let pictures = try LoopbackHTTPServer(pages: [:])
            defer { pictures.stop() }
            try Self.picturePage(in: pictures).write(to: pictures.directory.appendingPathComponent("picture.html"),
                                                     atomically: true, encoding: .utf8)
            let red = server.url("red.html"), picture = pictures.url("picture.html")
            let fixture = try kiosk([PlaylistEntry(url: red, duration: .milliseconds(800)),
                                     PlaylistEntry(url: picture, duration: .milliseconds(800))], allowing: picture, appID: appID)
            defer { fixture.close() }
            fixture.container.start()
            try await fixture.next(where: KeptCopies.saved(picture))
            try await fixture.next(where: native(.schedulePageShown, "0 \(red.absoluteString)"))
            pictures.stop(removingFiles: false)
            try await fixture.next(where: native(.schedulePageFailed, "1 \(picture.absoluteString)"))
            let container = fixture.container
            var seen: [UInt32] = []
            var underneath = false
            let stale = native(.schedulePageStale, "1 \(picture.absoluteString)")
            let shown = await TestLoop.wait(timeout: .seconds(30)) {
                if let colour = PreloadWindowTests().screenColour(container) { seen.append(colour) }
                if container.stage.preloader?.isCopy == true { underneath = true }
                return fixture.log.events.contains(where: stale) && seen.last == PreloadWindowTests.green
            }
            #expect(shown, "the picture's copy never reached the screen")
            #expect(underneath, "the copy was never loaded out of sight")
            let strangers = Set(seen).subtracting([PreloadWindowTests.red, PreloadWindowTests.green])
            #expect(strangers.isEmpty, "frames of neither item: \(strangers.map { String($0, radix: 16) }) in \(seen.count) samples")
            #expect(seen.count > 3, "too few samples (\(seen.count)) to tell")
            // The copy's own load finished out of sight before it counted as shown.
            let events = fixture.log.events
            let loaded = try #require(events.firstIndex(where: KeptCopies.copyLoaded))
            #expect(loaded < events.firstIndex(where: stale)!)
            #expect(container.currentURL?.scheme == PageSnapshots.scheme)
        }
    }
}
