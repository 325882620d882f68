import CWebKitGTK
import Foundation
import Testing
import Vitrine
@testable import VitrineGTK
import VitrineTestingGTK

extension WebKitTests {
    /// `[[displays]]` windows in-process under Xvfb (one monitor there): the window of the
    /// display on the monitor present opens with its page, and a changed layout closes and
    /// opens windows without ending anything (a synthetic layout: Xvfb cannot hot-plug).
    @Suite @MainActor
    struct DisplayWindowsTests {
        static func opened(_ log: MemoryEventLog, _ action: ContainerEvent.NativeAction) -> [String] {
            log.events.compactMap { if case let .native(name, detail) = $0, name == action { detail } else { nil } }
        }

        static func finished(_ log: MemoryEventLog, _ url: URL) -> Bool {
            log.events.contains { if case let .load(.finished, loaded, _, _, _) = $0 { loaded == url.absoluteString } else { false } }
        }

        @Test func windowsOpenAndCloseAsTheLayoutChangesAndTheKioskStays() async throws {
            TestLoop.start()
            let server = try LoopbackHTTPServer(pages: ["a.html": "<!doctype html><title>A</title>", "b.html": "<!doctype html><title>B</title>"])
            defer { server.stop() }
            let a = server.url("a.html"), b = server.url("b.html")
            // Display 0 wants a connector Xvfb has not, with its own playlist; display 1 takes
            // monitor 0 and runs the file's playlist.
            let configuration = try ConfiguratorFactory.make(for: .kiosk).startURL(a)
                .preference(\.schedule, Schedule(playlist: [PlaylistEntry(url: a, duration: .seconds(600))]))
                .preference(\.displays, [
                    DisplaySetting(monitor: .connector("HDMI-9"), startURL: b, playlist: [PlaylistEntry(url: b, duration: .seconds(600))]),
                    DisplaySetting(monitor: .index(0)),
                ]).build()
            let log = MemoryEventLog()
            let windows = DisplayWindows(configuration: configuration) { $0.addEventSink(log) }
            var allClosed = false
            windows.onAllClosed = { allClosed = true }
            defer { windows.closeAll() }
            windows.start()

            #expect(await TestLoop.wait { Self.opened(log, .displayWindowShown) == ["1 on monitor 0"] })
            let opened = Self.opened(log, .displayWindowOpened)
            #expect(opened.count == 1 && opened.first?.hasPrefix("1 0") == true && opened.first?.hasSuffix(" \(a.absoluteString)") == true,
                    "\(opened)")
            #expect(Array(windows.windows.keys) == [1])
            #expect(Self.finished(log, a))
            #expect(Self.opened(log, .schedulePage) == ["0 \(a.absoluteString)"])
            let window = try #require(windows.windows[1]?.window)
            #expect(gtk_window_get_decorated(cast(window)) == 0)

            // HDMI-9 takes monitor 0's place: display 1's window closes, display 0's opens there.
            let monitor = try #require(windows.currentMonitors().monitors.first)
            var hdmi = monitor
            hdmi.connector = "HDMI-9"
            windows.apply(DisplayLayout(displays: configuration.displays, monitors: [hdmi]))
            #expect(await TestLoop.wait { Self.opened(log, .displayWindowShown).contains("0 on monitor 0") })
            #expect(Self.opened(log, .displayWindowClosed).count == 1)
            #expect(Self.opened(log, .displayWindowClosed).first?.hasPrefix("1 0") == true)
            #expect(Self.opened(log, .displayWindowOpened).last == "0 0:HDMI-9 \(b.absoluteString)")
            #expect(Self.finished(log, b))
            #expect(Self.opened(log, .schedulePage) == ["0 \(a.absoluteString)", "0 \(b.absoluteString)"])
            #expect(Array(windows.windows.keys) == [0])

            // Every monitor gone: every window closes, the program is not told to end.
            windows.apply(DisplayLayout(displays: configuration.displays, monitors: []))
            #expect(windows.windows.isEmpty)
            #expect(Self.opened(log, .displayWindowClosed).count == 2)
            #expect(!allClosed)

            // The monitors GDK lists come back: the layout is applied again.
            windows.start()
            #expect(Array(windows.windows.keys) == [1])
            #expect(await TestLoop.wait { Self.opened(log, .displayWindowShown).count == 3 })
            // A window closed by someone else (not by a layout) ends the program: it was the last.
            windows.windows[1]?.close()
            #expect(allClosed)
        }

        @Test func withNoConfiguredMonitorPresentTheFirstDisplaysPageGoesOnThePrimary() async throws {
            TestLoop.start()
            let server = try LoopbackHTTPServer(pages: ["b.html": "<!doctype html><title>B</title>"])
            defer { server.stop() }
            let b = server.url("b.html")
            let configuration = try ConfiguratorFactory.make(for: .kiosk).startURL(b).preference(\.displays, [
                DisplaySetting(monitor: .connector("DP-7")), DisplaySetting(monitor: .index(3), startURL: server.url("b.html?3")),
            ]).build()
            let log = MemoryEventLog()
            let windows = DisplayWindows(configuration: configuration) { $0.addEventSink(log) }
            defer { windows.closeAll() }
            windows.start()
            #expect(await TestLoop.wait { Self.finished(log, b) })
            let opened = Self.opened(log, .displayWindowOpened)
            #expect(opened.count == 1 && opened.first?.hasPrefix("0 0") == true && opened.first?.hasSuffix(" fallback \(b.absoluteString)") == true,
                    "\(opened)")
            // On X11 GDK names a monitor by its RandR output: Xvfb's is "screen"
            // (`xrandr --listmonitors`), so a table naming it places its display there.
            let monitors = windows.currentMonitors().monitors
            #expect(monitors.map(\.connector) == ["screen"])
            let named = DisplayLayout(displays: [DisplaySetting(monitor: .connector("SCREEN"))], monitors: monitors)
            #expect(named.placements == [.init(display: 0, monitor: monitors[0])])
        }
    }
}
