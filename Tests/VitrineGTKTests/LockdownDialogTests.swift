import CWebKitGTK
import Foundation
import Testing
import Vitrine
@testable import VitrineGTK
import VitrineTestingGTK

extension WebKitTests {
    /// Nothing native opens over a locked-down kiosk, and nothing but its owner closes it.
    @Suite
    @MainActor
    struct LockdownDialogTests {
        static let page = """
            <!doctype html><title>kiosk</title>
            <input id="file" type="file"><input id="color" type="color">
            """

        private func kiosk() throws -> WebTestHarness {
            try WebTestHarness(pages: ["index.html": Self.page]) { $0.kiosk(KioskOptions(lockdown: true)) }
        }

        private static func toplevelCount() -> UInt32 {
            guard let list = gtk_window_list_toplevels() else { return 0 }
            defer { g_list_free(list) }
            return g_list_length(list)
        }

        private func blocked(_ harness: WebTestHarness) -> [String] {
            harness.events.events.compactMap {
                if case let .native(.blockedDialog, detail) = $0 { return detail }
                return nil
            }
        }

        /// Runs `script` in the page without waiting on it here: a dialog that blocked the
        /// page would block the answer, and the test must fail, not hang.
        private func run(_ script: String, in harness: WebTestHarness) async -> JSONValue? {
            var answer: JSONValue?
            let container = harness.container
            Task { @MainActor in answer = try? await container.evaluateAsync(script) }
            _ = await TestLoop.wait(timeout: .seconds(20)) { answer != nil }
            return answer
        }

        @Test func scriptDialogsAreAnsweredAtOnceAndLogged() async throws {
            let harness = try kiosk()
            defer { harness.close() }
            try await harness.open("index.html")
            let answer = await run("return {alert: alert('hello') ?? null, confirm: confirm('sure?'), prompt: prompt('name?', 'x')};",
                                   in: harness)
            #expect(answer == ["alert": .null, "confirm": false, "prompt": .null], "confirm is false, prompt is null, nothing blocks")
            #expect(blocked(harness) == ["alert: hello", "confirm: sure?", "prompt: name?"])
        }

        @Test func noPrintDialogFileOrColourChooserOpens() async throws {
            let harness = try kiosk()
            defer { harness.close() }
            try await harness.open("index.html")
            let windows = Self.toplevelCount()
            _ = await run("window.print(); document.getElementById('file').click(); document.getElementById('color').click(); return 1;",
                          in: harness)
            #expect(await TestLoop.wait { Set(blocked(harness)).isSuperset(of: ["print", "file-chooser", "color-chooser"]) },
                    "\(blocked(harness))")
            #expect(Self.toplevelCount() == windows, "no window opened over the kiosk")
        }

        @Test func nothingCanBeDroppedOnALockedDownKiosk() async throws {
            let harness = try kiosk()
            defer { harness.close() }
            let ordinary = try WebTestHarness(pages: ["index.html": Self.page])
            defer { ordinary.close() }
            #expect(gtk_drag_dest_get_target_list(try #require(harness.container.stage.panes.first).widget) == nil,
                    "the kiosk's view is no drop target")
            #expect(gtk_drag_dest_get_target_list(try #require(ordinary.container.stage.panes.first).widget) != nil,
                    "an ordinary window's view takes drops")
        }

        @Test func neitherThePageNorTheWindowManagerClosesAKiosk() async throws {
            let harness = try kiosk()
            defer { harness.close() }
            try await harness.open("index.html")
            var closed = false
            harness.container.onClose = { closed = true }
            let attempts = { harness.events.events.filter { if case .native(.blockedClose, _) = $0 { return true }; return false } }
            _ = await run("window.close(); return 1;", in: harness)
            // WebKit's `close` may come after the script's answer: the page's attempt first.
            #expect(await TestLoop.wait { attempts().count == 1 })
            gtk_window_close(harness.container.windowPointer)
            #expect(await TestLoop.wait { attempts().count == 2 })
            #expect(attempts() == [.native(action: .blockedClose, detail: "window.close()"),
                                   .native(action: .blockedClose, detail: "window-manager")])
            #expect(!closed && !harness.container.isTornDown, "the kiosk is still there")
            #expect(try await harness.container.evaluate("document.title") == "kiosk")
        }

        @Test func outsideAKioskThePageMayCloseItsWindow() async throws {
            let harness = try WebTestHarness(pages: ["index.html": Self.page])
            defer { harness.close() }
            try await harness.open("index.html")
            var closed = false
            harness.container.onClose = { closed = true }
            _ = await run("setTimeout(() => window.close(), 0); return 1;", in: harness)
            #expect(await TestLoop.wait { closed }, "window.close() closes an ordinary window")
        }

        @Test func aServerAskingForCredentialsGetsACancelledRequestNotAPrompt() async throws {
            let server = try LoopbackHTTPServer(pages: ["index.html": Self.page])
            defer { server.stop() }
            let harness = try kiosk()
            defer { harness.close() }
            try await harness.open("index.html")
            await harness.container.load(server.url("auth"))
            #expect(await TestLoop.wait { blocked(harness).contains("authentication: 127.0.0.1") }, "\(blocked(harness))")
            #expect(server.requestedPaths.filter { $0 == "/auth" }.count == 1, "asked once, no credentials sent")
        }
    }
}
