import CWebKitGTK
import Foundation
import Testing
import Vitrine
@testable import VitrineGTK
import VitrineTestingGTK

extension WebKitTests {
    /// `[schedule] preload` in a real window: each playlist page is a solid colour, and the
    /// window's pixels (read back from the X server, as the screen shows them) are sampled
    /// at every turn of the main loop during a transition. Only the two items' colours may
    /// ever be seen; a failing item leaves the current one on screen.
    @Suite @MainActor
    struct PreloadWindowTests {
        static let red: UInt32 = 0xFF0000, green: UInt32 = 0x00FF00

        static func page(_ colour: String) -> String {
            "<!doctype html><title>\(colour)</title><body style=\"margin:0;background:\(colour)\"></body>"
        }

        func native(_ action: ContainerEvent.NativeAction, _ detail: String) -> @Sendable (ContainerEvent) -> Bool {
            { if case let .native(name, text) = $0 { return name == action && text == detail }; return false }
        }

        /// The colour the screen shows at (x, y) of the container's window.
        func screenColour(_ container: WebContainer, x: gint = 40, y: gint = 40) -> UInt32? {
            guard let window = gtk_widget_get_window(container.window),
                  let pixbuf = gdk_pixbuf_get_from_window(window, x, y, 1, 1) else { return nil }
            defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
            let p = gdk_pixbuf_get_pixels(pixbuf)!
            return UInt32(p[0]) << 16 | UInt32(p[1]) << 8 | UInt32(p[2])
        }

        func kiosk(_ playlist: [PlaylistEntry], preload: Bool = true) throws -> ContainerFixture {
            var schedule = Schedule(playlist: playlist)
            schedule.preload = preload
            return try ContainerFixture(ConfiguratorFactory.make(for: .kiosk).startURL(playlist[0].url).fullscreen(false)
                .preference(\.schedule, schedule))
        }

        @Test func theNextPageReplacesTheCurrentOneOnlyOnceItHasPainted() async throws {
            let server = try LoopbackHTTPServer(pages: ["red.html": Self.page("#ff0000"), "green.html": Self.page("#00ff00")])
            defer { server.stop() }
            let red = server.url("red.html"), green = server.url("green.html")
            let fixture = try kiosk([PlaylistEntry(url: red, duration: .milliseconds(400)),
                                     PlaylistEntry(url: green, duration: .seconds(120))])
            defer { fixture.close() }
            fixture.container.start()
            try await fixture.next(where: native(.schedulePageShown, "0 \(red.absoluteString)"))
            let container = fixture.container
            #expect(await TestLoop.wait { screenColour(container) == Self.red }, "red never reached the screen")
            weak let redPane = container.stage.activePane

            // Every turn of the main loop until green is on screen: what the screen shows.
            var seen: [UInt32] = []
            var underneath = false
            let swapped = await TestLoop.wait(timeout: .seconds(30)) {
                if let colour = screenColour(container) { seen.append(colour) }
                if container.stage.preloader != nil { underneath = true }
                return seen.last == Self.green
            }
            #expect(swapped, "green never reached the screen")
            #expect(underneath, "green was never loaded out of sight")
            let strangers = Set(seen).subtracting([Self.red, Self.green])
            #expect(strangers.isEmpty, "frames of neither item: \(strangers.map { String($0, radix: 16) }) in \(seen.count) samples")
            #expect(seen.count > 3, "too few samples (\(seen.count)) to tell")
            // The order of facts: green's own load finished before it was declared shown.
            let events = fixture.log.events
            let finished = events.firstIndex { if case let .load(.finished, url, _, _, _) = $0 { return url == green.absoluteString }; return false }
            let shown = events.firstIndex(where: native(.schedulePageShown, "1 \(green.absoluteString)"))
            #expect(finished != nil && shown != nil && finished! < shown!)
            #expect(container.currentURL == green)
            // The red pane was released after the swap (its owner let go of it).
            #expect(await TestLoop.wait { redPane == nil }, "the replaced pane is still alive")

            // Recovery holds for the swapped-in view: its process killed, it comes back.
            webkit_web_view_terminate_web_process(container.stage.activePane.webView)
            try await fixture.next(where: native(.recover, green.absoluteString))
            try await fixture.nextLoad(of: green)
            #expect(await TestLoop.wait { screenColour(container) == Self.green })
        }

        /// Two failing items after red: one the allow-list refuses (another origin), one its
        /// server answers 503 (its error page loads out of sight). Neither reaches the
        /// screen; as every other item failed, red stays for its duration again (it is not
        /// loaded again), and the refused item is tried again on its next turn.
        @Test func aFailingPageLeavesTheCurrentOneOnScreen() async throws {
            let server = try LoopbackHTTPServer(pages: ["red.html": Self.page("#ff0000"), "MAINTENANCE": ""])
            defer { server.stop() }
            let red = server.url("red.html")
            let refused = server.url("red.html", host: "localhost")
            let unavailable = server.url("maintenance/red.html")
            let fixture = try kiosk([PlaylistEntry(url: red, duration: .milliseconds(300)),
                                     PlaylistEntry(url: refused, duration: .milliseconds(300)),
                                     PlaylistEntry(url: unavailable, duration: .milliseconds(300))])
            defer { fixture.close() }
            fixture.container.start()
            try await fixture.next(where: native(.schedulePageShown, "0 \(red.absoluteString)"))
            let container = fixture.container
            #expect(await TestLoop.wait { screenColour(container) == Self.red })

            var seen: [UInt32] = []
            var failedPanes: [WeakPane] = []
            let failed = await TestLoop.wait(timeout: .seconds(30)) {
                if let colour = screenColour(container) { seen.append(colour) }
                if let pane = container.stage.preloader?.pane, !failedPanes.contains(where: { $0.pane === pane }) {
                    failedPanes.append(WeakPane(pane: pane))
                }
                return fixture.log.events.contains(where: native(.schedulePageFailed, "2 \(unavailable.absoluteString)"))
            }
            #expect(failed)
            #expect(fixture.log.events.contains(where: native(.schedulePageFailed, "1 \(refused.absoluteString)")))
            // The error page loaded out of sight, and went with its pane.
            #expect(fixture.log.events.contains(where: native(.errorPage, "network \(unavailable.absoluteString)")))
            #expect(container.currentURL == red)
            #expect(failedPanes.count == 2, "\(failedPanes.count) panes preloaded")
            #expect(await TestLoop.wait { failedPanes.allSatisfy { $0.pane == nil } }, "a failed pane is still alive")
            for url in [refused, unavailable] {
                #expect(fixture.log.events.contains {
                    if case let .proofOfPlay(record) = $0 { return record.url == url.absoluteString && record.outcome == .failed }
                    return false
                })
            }
            // The refused item's next turn (after red's duration again); red all along.
            try await fixture.next(where: native(.schedulePageFailed, "2 \(unavailable.absoluteString)"))
            let retried = await TestLoop.wait(timeout: .seconds(20)) {
                if let colour = screenColour(container) { seen.append(colour) }
                return fixture.log.events.filter(native(.schedulePage, "1 \(refused.absoluteString)")).count == 2
            }
            #expect(retried, "the refused item was not tried again")
            #expect(Set(seen) == [Self.red], "the screen showed \(Set(seen).map { String($0, radix: 16) }) in \(seen.count) samples")
            #expect(seen.count > 3, "too few samples (\(seen.count)) to tell")
            #expect(fixture.log.events.filter(native(.schedulePageShown, "0 \(red.absoluteString)")).count == 1, "red was loaded again")
            #expect(screenColour(container) == Self.red)
        }

        /// A pane seen while it was preloaded, without keeping it alive.
        struct WeakPane {
            weak var pane: WebPane?
        }

        @Test func withoutPreloadTheNextPageLoadsInTheViewOnScreen() async throws {
            let server = try LoopbackHTTPServer(pages: ["red.html": Self.page("#ff0000"), "green.html": Self.page("#00ff00")])
            defer { server.stop() }
            let red = server.url("red.html"), green = server.url("green.html")
            let fixture = try kiosk([PlaylistEntry(url: red, duration: .milliseconds(300)),
                                     PlaylistEntry(url: green, duration: .seconds(120))], preload: false)
            defer { fixture.close() }
            fixture.container.start()
            try await fixture.next(where: native(.schedulePageShown, "0 \(red.absoluteString)"))
            let first = fixture.container.stage.activePane
            try await fixture.next(where: native(.schedulePageShown, "1 \(green.absoluteString)"))
            #expect(fixture.container.stage.activePane === first)
            #expect(fixture.container.stage.preloader == nil)
            // On screen: the schedule's display cover does not hide the page.
            let container = fixture.container
            #expect(await TestLoop.wait { screenColour(container) == Self.green }, "green never reached the screen")
        }
    }
}
