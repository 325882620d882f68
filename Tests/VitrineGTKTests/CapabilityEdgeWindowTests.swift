import CWebKitGTK
import Foundation
import Testing
import Vitrine
@testable import VitrineGTK
import VitrineTestingGTK

extension WebKitTests {
    /// What the capabilities refuse on real pages: a clipboard read or write from a hidden
    /// or background window (a write allowed by `background-clipboard`), a `mailto:` that would attach local files, a save name that
    /// leaves the dialog's folder.
    @Suite @MainActor
    struct CapabilityEdgeWindowTests {
        static let page = "<!doctype html><html><head><title>caps</title></head><body></body></html>"
        static let app = Origin(string: "app://\(WebTestHarness.host)")!

        private static func clipboard() -> OpaquePointer? { gtk_clipboard_get(gdk_atom_intern_static_string("CLIPBOARD")) }

        /// Shows the harness's window again, then opens a second window of the app in front of
        /// it: the first is shown but in the background.
        private func showBehindASecondWindow(_ harness: WebTestHarness) async throws -> WebContainer {
            gtk_widget_show(harness.container.window)
            _ = try await harness.container.evaluateAsync("return await vitrine.window.open('second.html');")
            try await harness.fixture.nextLoad(of: WebTestHarness.url("second.html"))
            let second = try #require(harness.container.windows.windows.last)
            #expect(await present(second))
            #expect(await TestLoop.wait { harness.container.service(ClipboardService.self)?.isWindowFocusedAndVisible != true })
            return second
        }

        private func present(_ container: WebContainer) async -> Bool {
            gtk_window_present(container.windowPointer)
            return await TestLoop.wait(timeout: .seconds(10)) { container.service(ClipboardService.self)?.isWindowFocusedAndVisible == true }
        }

        private func readClipboard(_ container: WebContainer) async throws -> JSONValue {
            try await container.evaluateAsync("try { return await vitrine.clipboard.readText(); } catch (e) { return e.message; }")
        }

        @Test func aClipboardReadNeedsTheWindowShownAndFocused() async throws {
            let harness = try WebTestHarness(pages: ["index.html": Self.page, "second.html": Self.page], configure: {
                $0.grantCapabilities([.clipboard, .window], to: Self.app)
            })
            defer { harness.close() }
            try await harness.open("index.html")
            let refusal: JSONValue = "clipboard: readText: the window must be shown and focused (a hidden or background window's page cannot read the clipboard)"
            gtk_clipboard_set_text(Self.clipboard(), "a secret the user copied", -1)
            #expect(await present(harness.container))
            #expect(try await readClipboard(harness.container) == "a secret the user copied")

            // Hidden: its page keeps running, and reads nothing.
            gtk_widget_hide(harness.container.window)
            #expect(await TestLoop.wait { gtk_widget_get_mapped(harness.container.window) == 0 })
            #expect(try await readClipboard(harness.container) == refusal)

            // Shown again but behind another window of the app: the background one reads nothing.
            let second = try await showBehindASecondWindow(harness)
            #expect(try await readClipboard(harness.container) == refusal)
            #expect(try await readClipboard(second) == "a secret the user copied")
            second.close()
        }

        private func writeClipboard(_ container: WebContainer, _ text: String) async throws -> JSONValue {
            try await container.evaluateAsync(
                "try { return await vitrine.clipboard.writeText('\(text)'); } catch (e) { return e.message; }")
        }

        private static func clipboardText() -> String? {
            gtk_clipboard_wait_for_text(clipboard()).map { pointer in
                defer { g_free(pointer) }
                return String(cString: pointer)
            }
        }

        @Test func aClipboardWriteNeedsTheWindowShownAndFocused() async throws {
            let harness = try WebTestHarness(pages: ["index.html": Self.page, "second.html": Self.page], configure: {
                $0.grantCapabilities([.clipboard, .window], to: Self.app)
            })
            defer { harness.close() }
            try await harness.open("index.html")
            let refusal = JSONValue.string("clipboard: writeText: the window must be shown and focused (a hidden or background window's page "
                + "cannot overwrite the clipboard; [capabilities] background-clipboard = true allows it)")
            gtk_clipboard_set_text(Self.clipboard(), "what the user copied", -1)

            // Hidden: its page writes nothing, text or image; the user's copy stays.
            gtk_widget_hide(harness.container.window)
            #expect(await TestLoop.wait { gtk_widget_get_mapped(harness.container.window) == 0 })
            #expect(try await writeClipboard(harness.container, "from a hidden page") == refusal)
            #expect(try await harness.container.evaluateAsync(
                "try { return await vitrine.clipboard.writeImage(new Uint8Array([137, 80, 78, 71])); } catch (e) { return e.message; }")
                .stringValue?.hasPrefix("clipboard: writeImage: the window must be shown and focused") == true)
            #expect(Self.clipboardText() == "what the user copied")

            // Shown again but behind another window of the app: the background one writes nothing.
            let second = try await showBehindASecondWindow(harness)
            #expect(try await writeClipboard(harness.container, "from a background page") == refusal)
            #expect(Self.clipboardText() == "what the user copied")
            // The focused window's page writes.
            #expect(try await writeClipboard(second, "from the focused page") == true)
            #expect(Self.clipboardText() == "from the focused page")
            second.close()
        }

        @Test func backgroundClipboardLetsAHiddenWindowWrite() async throws {
            let harness = try WebTestHarness(pages: ["index.html": Self.page], configure: {
                $0.grantCapabilities([.clipboard], to: Self.app).preference(\.backgroundClipboard, true)
            })
            defer { harness.close() }
            try await harness.open("index.html")
            gtk_clipboard_set_text(Self.clipboard(), "what the user copied", -1)
            gtk_widget_hide(harness.container.window)
            #expect(await TestLoop.wait { gtk_widget_get_mapped(harness.container.window) == 0 })
            #expect(try await writeClipboard(harness.container, "from a hidden page") == true)
            #expect(Self.clipboardText() == "from a hidden page")
        }

        @Test func aMailtoReachesTheDesktopWithoutFileParameters() async throws {
            let harness = try WebTestHarness(pages: ["index.html": Self.page], configure: { $0.grantCapabilities([.shell], to: Self.app) })
            defer { harness.close() }
            try await harness.open("index.html")
            var launched: [URL] = []
            harness.container.externalOpener = { launched.append($0) }
            let answer = try await harness.container.evaluateAsync("""
                return [await vitrine.shell.open('mailto:help@example.org?subject=Logs&attach=/etc/passwd&ATTACHMENT=file:///root/.ssh/id_rsa&at%74ach=/etc/shadow&body=hi')];
                """)
            #expect(answer == [true])
            #expect(launched.map(\.absoluteString) == ["mailto:help@example.org?subject=Logs&body=hi"])
            #expect(harness.container.externallyOpenedURLs == launched)
        }

        @Test func aSaveNameThatLeavesTheFolderIsRefusedBeforeAnyDialog() async throws {
            let harness = try WebTestHarness(pages: ["index.html": Self.page], configure: { $0.grantCapabilities([.dialog], to: Self.app) })
            defer { harness.close() }
            try await harness.open("index.html")
            // Not awaited in the evaluation: a dialog that opened would wait for a person.
            _ = try await harness.container.evaluate("""
                window.saved = [];
                for (const name of ['../x', 'sub/x', '.bashrc', '..']) {
                  vitrine.dialog.save({name, text: 'x'}).then((path) => saved.push(['saved', path]), (e) => saved.push([name, e.message]));
                }
                1
                """)
            let fileDialogs = { harness.events.events.filter { if case .native(.fileDialog, _) = $0 { return true }; return false }.count }
            // Settled when every call has answered, or a dialog opened (then one never will).
            var saved: JSONValue = []
            for _ in 0..<200 where fileDialogs() == 0 {
                saved = try await harness.container.evaluate("saved")
                if case .array(let answers) = saved, answers.count == 4 { break }
                try await harness.fixture.roundTrip()
            }
            #expect(fileDialogs() == 0, "no dialog opened")
            guard case .array(let results) = saved else { Issue.record("\(saved)"); return }
            #expect(results.count == 4, "\(saved)")
            for case .array(let pair) in results {
                #expect(pair.last?.stringValue?.hasPrefix("dialog: save: name must be a plain file name") == true, "\(pair)")
            }
        }
    }
}
