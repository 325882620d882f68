import CWebKitGTK
import Foundation
import Testing
import Vitrine
@testable import VitrineGTK
import VitrineTestingGTK

extension WebKitTests {
    /// `[schedule]` in a real window: a playlist turning through real pages (one refused by
    /// the chain and one unreachable, both skipped), and the screen off and on as the page
    /// sees it (`visibilitychange`).
    @Suite @MainActor
    struct SignageTests {
        static func page(_ title: String) -> String {
            """
            <!doctype html><title>\(title)</title><body style="background:#123">
            <script>
            document.addEventListener("visibilitychange", () => fetch("/visibility?" + document.visibilityState));
            </script>
            """
        }

        func native(_ action: ContainerEvent.NativeAction, _ detail: String? = nil) -> @Sendable (ContainerEvent) -> Bool {
            { if case let .native(name, text) = $0 { return name == action && (detail == nil || text == detail) }; return false }
        }

        func finished(_ url: URL) -> @Sendable (ContainerEvent) -> Bool {
            { if case let .load(.finished, loaded, _, _, _) = $0 { return loaded == url.absoluteString }; return false }
        }

        @Test func thePlaylistTurnsAndSkipsARefusedAndAnUnreachablePage() async throws {
            let server = try LoopbackHTTPServer(pages: ["a.html": Self.page("A"), "b.html": Self.page("B")])
            defer { server.stop() }
            let a = server.url("a.html"), b = server.url("b.html")
            // Another origin: the kiosk's allow-list refuses it.
            let refused = server.url("b.html", host: "localhost")
            let unreachable = URL(string: "http://127.0.0.1:\(try freePort())/gone.html")!
            let timing = TimingSink()
            let schedule = Schedule(playlist: [
                PlaylistEntry(url: a, duration: .milliseconds(300)),
                PlaylistEntry(url: refused, duration: .milliseconds(300)),
                PlaylistEntry(url: unreachable, duration: .milliseconds(300)),
                PlaylistEntry(url: b, duration: .milliseconds(300)),
            ])
            let fixture = try ContainerFixture(ConfiguratorFactory.make(for: .kiosk).startURL(a).fullscreen(false)
                .preference(\.schedule, schedule))
            defer { fixture.close() }
            fixture.container.addEventSink(timing)
            fixture.container.start()

            try await fixture.next(where: native(.schedulePage, "0 \(a.absoluteString)"))
            try await fixture.next(where: finished(a))
            try await fixture.next(where: native(.schedulePage, "1 \(refused.absoluteString)"))
            try await fixture.next(where: native(.schedulePageFailed, "1 \(refused.absoluteString)"))
            try await fixture.next(where: native(.schedulePage, "2 \(unreachable.absoluteString)"))
            try await fixture.next(where: native(.schedulePageFailed, "2 \(unreachable.absoluteString)"))
            try await fixture.next(where: native(.schedulePage, "3 \(b.absoluteString)"))
            try await fixture.next(where: finished(b))
            // Preloaded: on screen once it has painted.
            try await fixture.next(where: native(.schedulePageShown, "3 \(b.absoluteString)"))
            #expect(try await fixture.container.evaluate("document.title") == "B")
            // Round again: A, and the refused page is tried again on its turn.
            try await fixture.next(where: native(.schedulePage, "0 \(a.absoluteString)"))
            try await fixture.next(where: finished(a))
            try await fixture.next(where: native(.schedulePage, "1 \(refused.absoluteString)"))
            // The chain refused the other origin: never requested from "localhost".
            #expect(fixture.log.events.contains {
                if case let .navigation(url, handler, .cancel, _, _, _) = $0 { return url == refused.absoluteString && handler == "origin-allowlist" }
                return false
            })
            // Rotation time: the schedule's decision to the new page's load finished.
            let rotations = timing.durations(from: { if case let .native(.schedulePage, detail) = $0 { return detail.hasPrefix("0 ") || detail.hasPrefix("3 ") }; return false },
                                             to: { if case .load(.finished, _, _, _, _) = $0 { return true }; return false })
            #expect(!rotations.isEmpty)
            print("signage: rotation, schedule-page → load finished (ms): \(rotations.map { Int(($0.inSeconds * 1000).rounded()) })")
        }

        @Test func reloadsComeOnTimeAndAClickWakesTheScreen() async throws {
            let server = try LoopbackHTTPServer(pages: ["a.html": Self.page("A")])
            defer { server.stop() }
            let a = server.url("a.html")
            let schedule = Schedule(playlist: [PlaylistEntry(url: a, duration: .seconds(60))], reloads: [.every(.milliseconds(300))])
            let fixture = try ContainerFixture(ConfiguratorFactory.make(for: .kiosk).startURL(a).fullscreen(false)
                .preference(\.schedule, schedule))
            defer { fixture.close() }
            try await fixture.start(waitingFor: a)
            try await fixture.next(where: native(.scheduleReload))
            try await fixture.next(where: { if case .navigation(_, _, _, .reload, _, .request) = $0 { return true }; return false })
            try await fixture.nextLoad(of: a)

            fixture.container.feature(SignageFeature.self)!.setDisplay(on: false)
            try await fixture.next(where: native(.displayOff, "command"))
            // A button press on the black cover, through GTK's own event dispatch.
            let cover = try #require(fixture.container.feature(SignageFeature.self)!.runner?.cover?.widget)
            let coverWindow = try #require(gtk_widget_get_window(cover))
            let event = try #require(gdk_event_new(GDK_BUTTON_PRESS))
            event.pointee.button.window = coverWindow
            g_object_ref(gptr(coverWindow))
            event.pointee.button.button = 1
            event.pointee.button.x = 40
            event.pointee.button.y = 40
            gdk_event_set_device(event, gdk_seat_get_pointer(gdk_display_get_default_seat(gdk_display_get_default())))
            gtk_main_do_event(event)
            gdk_event_free(event)
            try await fixture.next(where: native(.displayOn, "input"))
            #expect(fixture.container.feature(SignageFeature.self)!.isDisplayOn)
        }

        @Test func theScreenOffHidesThePageAndOnShowsItAgain() async throws {
            let server = try LoopbackHTTPServer(pages: ["a.html": Self.page("A")])
            defer { server.stop() }
            let a = server.url("a.html")
            let fixture = try ContainerFixture(ConfiguratorFactory.make(for: .kiosk).startURL(a).fullscreen(false))
            defer { fixture.close() }
            try await fixture.start(waitingFor: a)
            #expect(try await fixture.container.evaluate("document.visibilityState") == "visible")
            #expect(fixture.container.feature(SignageFeature.self)!.isDisplayOn)

            fixture.container.feature(SignageFeature.self)!.setDisplay(on: false)
            try await fixture.next(where: native(.displayOff, "command"))
            #expect(!fixture.container.feature(SignageFeature.self)!.isDisplayOn)
            #expect(await TestLoop.wait { server.requestedPaths.contains("/visibility?hidden") }, "the page saw itself hidden")
            #expect(try await fixture.container.evaluate("document.visibilityState") == "hidden")

            fixture.container.feature(SignageFeature.self)!.setDisplay(on: true)
            try await fixture.next(where: native(.displayOn, "command"))
            #expect(fixture.container.feature(SignageFeature.self)!.isDisplayOn)
            #expect(await TestLoop.wait { server.requestedPaths.contains("/visibility?visible") }, "the page saw itself shown")
            #expect(try await fixture.container.evaluate("document.visibilityState") == "visible")
        }
    }
}

/// Records when each event arrived, for figures.
@MainActor
private final class TimingSink: EventSink {
    private var events: [(ContainerEvent, ContinuousClock.Instant)] = []

    func record(_ event: ContainerEvent) { events.append((event, .now)) }

    /// For each event matching `start`, the time to the next event matching `end`.
    func durations(from start: (ContainerEvent) -> Bool, to end: (ContainerEvent) -> Bool) -> [Duration] {
        events.enumerated().compactMap { index, entry in
            guard start(entry.0), let stop = events[(index + 1)...].first(where: { end($0.0) }) else { return nil }
            return entry.1.duration(to: stop.1)
        }
    }
}
