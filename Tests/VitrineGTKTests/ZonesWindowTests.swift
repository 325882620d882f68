import CWebKitGTK
import Foundation
import Testing
import Vitrine
@testable import VitrineGTK
import VitrineTestingGTK

extension WebKitTests {
    /// `[[zones]]` in a real window: main, side and a ticker with its own playlist, each a
    /// solid colour read back from the screen at its rectangle; one zone's web process
    /// killed: that zone comes back, the others keep their pages.
    @Suite @MainActor
    struct ZonesWindowTests {
        static func page(_ colour: String) -> String {
            "<!doctype html><title>\(colour)</title><body style=\"margin:0;background:\(colour)\"></body>"
        }

        func native(_ action: ContainerEvent.NativeAction, _ detail: String) -> @Sendable (ContainerEvent) -> Bool {
            { if case let .native(name, text) = $0 { return name == action && text == detail }; return false }
        }

        func screenColour(_ container: WebContainer, x: gint, y: gint) -> UInt32? {
            guard let window = gtk_widget_get_window(container.window),
                  let pixbuf = gdk_pixbuf_get_from_window(window, x, y, 1, 1) else { return nil }
            defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
            let p = gdk_pixbuf_get_pixels(pixbuf)!
            return UInt32(p[0]) << 16 | UInt32(p[1]) << 8 | UInt32(p[2])
        }

        func evaluate(_ script: String, inSlot slot: Int, of container: WebContainer) async throws -> JSONValue {
            try await JavaScriptEvaluation.run(script, in: container.stage.panes[slot].webView)
        }

        @Test func threeZonesAndACrashInOneRecoversThatZoneOnly() async throws {
            let server = try LoopbackHTTPServer(pages: ["red.html": Self.page("#ff0000"), "green.html": Self.page("#00ff00"),
                                                        "blue.html": Self.page("#0000ff"), "cyan.html": Self.page("#00ffff")])
            defer { server.stop() }
            let red = server.url("red.html"), green = server.url("green.html")
            let blue = server.url("blue.html"), cyan = server.url("cyan.html")
            let zones = [
                Zone(name: "main", x: .pixels(0), y: .pixels(0), width: .percent(75), height: .percent(90), url: red),
                Zone(name: "side", x: .percent(75), y: .pixels(0), width: .percent(25), height: .percent(90), url: green),
                Zone(name: "ticker", x: .pixels(0), y: .percent(90), width: .percent(100), height: .percent(10),
                     playlist: [PlaylistEntry(url: blue, duration: .milliseconds(300)), PlaylistEntry(url: cyan, duration: .milliseconds(300))]),
            ]
            let fixture = try ContainerFixture(ConfiguratorFactory.make(for: .kiosk).startURL(red).fullscreen(false)
                .windowSize(width: 800, height: 600).preference(\.zones, zones))
            defer { fixture.close() }
            fixture.container.start()
            let container = fixture.container
            #expect(container.stage.panes.count == 3)

            // Each zone shows its colour in its rectangle (800 x 600: main 600 x 540, side
            // 200 x 540 at 600,0, ticker 800 x 60 at 0,540).
            let placed = await TestLoop.wait(timeout: .seconds(30)) {
                screenColour(container, x: 300, y: 270) == 0xFF0000 && screenColour(container, x: 700, y: 270) == 0x00FF00
                    && [0x0000FF, 0x00FFFF].contains(screenColour(container, x: 400, y: 570))
            }
            let shown = [(300, 270), (700, 270), (400, 570)].map { String(describing: screenColour(container, x: $0.0, y: $0.1)) }
            #expect(placed, "zones not on screen: \(shown)")
            // Edges: main ends at 599, side starts at 600; the ticker starts at 540.
            #expect(screenColour(container, x: 599, y: 10) == 0xFF0000 && screenColour(container, x: 600, y: 10) == 0x00FF00)
            #expect(screenColour(container, x: 10, y: 539) == 0xFF0000)
            // The ticker's own playlist turns (and preloads, in its own rectangle).
            try await fixture.next(where: native(.schedulePageShown, "1 \(cyan.absoluteString)"))
            try await fixture.next(where: native(.schedulePageShown, "0 \(blue.absoluteString)"))
            #expect(container.stage.url(ofZone: "main") == red && container.stage.url(ofZone: "side") == green)

            // A mark in each still page, then the main zone's web process killed.
            for slot in [0, 1] { _ = try await evaluate("window.mark = 'kept'", inSlot: slot, of: container) }
            let sidePane = container.stage.panes[1]
            webkit_web_view_terminate_web_process(container.stage.panes[0].webView)
            try await fixture.next(where: native(.recover, red.absoluteString))
            try await fixture.nextLoad(of: red)
            #expect(try await evaluate("String(window.mark)", inSlot: 0, of: container) == "undefined") // reloaded
            #expect(try await evaluate("String(window.mark)", inSlot: 1, of: container) == "kept")     // untouched
            #expect(container.stage.panes[1] === sidePane)
            #expect(await TestLoop.wait { screenColour(container, x: 300, y: 270) == 0xFF0000 })
            #expect(screenColour(container, x: 700, y: 270) == 0x00FF00)
            // Only the main zone's recovery happened.
            let recoveries = fixture.log.events.filter { if case .native(.recover, _) = $0 { return true }; return false }
            #expect(recoveries.count == 1)
        }
    }
}
