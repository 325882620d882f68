import CWebKitGTK
import Foundation
import Testing
import Vitrine
@testable import VitrineGTK
import VitrineTestingGTK

extension WebKitTests {
    /// The capabilities from a real page: the clipboard read back through GTK, the window
    /// driven and its events heard, a second window opened and closed, the shell's rules, and a capability
    /// that was not granted refused with its name and the config key.
    @Suite @MainActor
    struct CapabilityWindowTests {
        static let page = """
            <!doctype html><html><head><title>caps</title></head><body>
            <script>
            window.heard = [];
            vitrine.window.on('resize', (size) => heard.push(['resize', size.width, size.height]));
            vitrine.window.on('closed', (closed) => heard.push(['closed', closed.id]));
            </script></body></html>
            """

        private static func clipboard() -> OpaquePointer? { gtk_clipboard_get(gdk_atom_intern_static_string("CLIPBOARD")) }

        /// Each capability's service is the window's feature in its folder; once the window
        /// has gone there is none, and every capability refuses (fails closed).
        @Test func theCapabilitiesServicesAreTheWindowsFeaturesUntilItGoes() async throws {
            let harness = try WebTestHarness(pages: ["index.html": Self.page])
            defer { harness.close() }
            let window = harness.container
            #expect(window.service(ClipboardService.self) === window.feature(ClipboardFeature.self))
            #expect(window.service(FileDialogService.self) === window.feature(DialogFeature.self))
            #expect(window.service(MenuService.self) === window.feature(MenuFeature.self))
            #expect(window.service(NotificationService.self) === window.feature(NotificationFeature.self))
            #expect(window.service(PrintService.self) === window.feature(PrintFeature.self))
            #expect(window.service(ShortcutService.self) === window.feature(ShortcutFeature.self))
            #expect(window.service(TrayService.self) === window.feature(TrayFeature.self))
            #expect(window.service(PowerService.self) === window.feature(PowerFeature.self))
            #expect(window.service(UpdateService.self) === window.feature(UpdateFeature.self))
            #expect(window.service(WindowService.self) === window.feature(WindowControlFeature.self))
            #expect(window.service(WindowService.self)?.isKioskWindow == false)

            let grants = CapabilityGrants().granting(Set(Capability.allCases), to: Origin(string: "app://\(WebTestHarness.host)")!)
            let strategies = ScriptMessageStrategies([ClipboardStrategy(), WindowStrategy(), NotificationStrategy()])
            let page = WebTestHarness.url("index.html")
            func dispatch(_ name: String, _ body: JSONValue) async -> Result<JSONValue, ScriptMessageError> {
                await strategies.dispatch(ScriptMessage(name: name, body: body, pageURL: page),
                                          context: ScriptMessageContext(host: window.host, capabilities: grants))
            }
            #expect(await dispatch("window", ["action": "setTitle", "title": "before"]) == .success(true))
            #expect(window.windowTitle == "before")
            window.close()
            #expect(await TestLoop.wait { window.isTornDown })
            #expect(window.service(ClipboardService.self) == nil && window.service(WindowService.self) == nil
                && window.service(PowerService.self) == nil)
            #expect(await dispatch("window", ["action": "setTitle", "title": "after"])
                == .failure(ScriptMessageError("window: this container has no desktop to do it")))
            #expect(await dispatch("clipboard", .bytes([0x89, 0x50, 0x4E, 0x47]))
                == .failure(ScriptMessageError("clipboard: this container has no desktop to do it")))
            #expect(await dispatch("notification", ["action": "show", "title": "Hi"])
                == .failure(ScriptMessageError("notification: this container has no desktop to do it")))
        }

        @Test func aGrantedPageUsesTheClipboardAndItsWindowsAndIsRefusedTheRest() async throws {
            let app = Origin(string: "app://\(WebTestHarness.host)")!
            let harness = try WebTestHarness(pages: ["index.html": Self.page, "second.html": Self.page], configure: {
                $0.grantCapabilities([.clipboard, .window, .shell], to: app)
            })
            defer { harness.close() }
            var lastWindowClosed = 0
            harness.container.windows.onLastWindowClosed = { lastWindowClosed += 1 }
            try await harness.open("index.html")

            // The clipboard: text both ways, and a PNG the page made, read back through GTK.
            // Reads and writes need the window focused (bare Xvfb focuses a presented window).
            gtk_window_present(harness.container.windowPointer)
            #expect(await TestLoop.wait { harness.container.service(ClipboardService.self)?.isWindowFocusedAndVisible == true })
            let written = try await harness.container.evaluateAsync("""
                await vitrine.clipboard.writeText('copied by the page');
                const canvas = document.createElement('canvas');
                canvas.width = 3; canvas.height = 2;
                canvas.getContext('2d').fillRect(0, 0, 3, 2);
                const blob = await new Promise((resolve) => canvas.toBlob(resolve, 'image/png'));
                return {png: (await blob.arrayBuffer()).byteLength};
                """)
            #expect((written["png"]?.numberValue ?? 0) > 8)
            let text = gtk_clipboard_wait_for_text(Self.clipboard()).map { pointer in
                defer { g_free(pointer) }
                return String(cString: pointer)
            }
            #expect(text == "copied by the page")
            gtk_clipboard_set_text(Self.clipboard(), "set through GTK", -1)
            #expect(try await harness.container.evaluateAsync("return await vitrine.clipboard.readText();") == "set through GTK")
            let image = try await harness.container.evaluateAsync("""
                const canvas = document.createElement('canvas');
                canvas.width = 3; canvas.height = 2;
                canvas.getContext('2d').fillRect(0, 0, 3, 2);
                const blob = await new Promise((resolve) => canvas.toBlob(resolve, 'image/png'));
                await vitrine.clipboard.writeImage(new Uint8Array(await blob.arrayBuffer()));
                try { await vitrine.clipboard.writeImage(new Uint8Array([1, 2, 3])); return 'accepted'; } catch (e) { return e.message; }
                """)
            #expect(image == "clipboard: writeImage: the bytes are not a PNG image")
            let pixbuf = try #require(gtk_clipboard_wait_for_image(Self.clipboard()))
            #expect(gdk_pixbuf_get_width(pixbuf) == 3 && gdk_pixbuf_get_height(pixbuf) == 2)
            g_object_unref(gptr(pixbuf))

            // A capability not granted: refused, naming it and the key.
            let refused = try await harness.container.evaluateAsync("""
                try { await vitrine.storage.set('k', 1); return 'stored'; } catch (e) { return e.message; }
                """)
            #expect(refused == #"capability "storage" is not granted to app://test — add it to [capabilities] in the config"#)

            // The shell: the external-browser handler's schemes only, chosen files only.
            let shell = try await harness.container.evaluateAsync("""
                const out = [await vitrine.shell.open('https://example.org/docs')];
                for (const call of [() => vitrine.shell.open('javascript:alert(1)'), () => vitrine.shell.openFile('/etc/hostname')]) {
                  try { await call(); out.push('opened'); } catch (e) { out.push(e.message); }
                }
                return out;
                """)
            #expect(shell == [true, "shell: open needs an absolute URL with one of the schemes http, https, mailto, tel",
                              "shell: openFile: only a file the user chose in a dialog can be opened"])
            #expect(harness.container.externallyOpenedURLs == [URL(string: "https://example.org/docs")!])

            // The window: its state, title and size, and the page hears the resize.
            let state = try await harness.container.evaluateAsync("""
                await vitrine.window.setTitle('Renamed by the page');
                await vitrine.window.resize(640, 480);
                return await vitrine.window.state();
                """)
            #expect(state["id"] == 1 && state["title"] == "Renamed by the page", "\(state)")
            #expect(harness.container.windowTitle == "Renamed by the page")
            try await harness.fixture.next(where: { $0 == .native(action: .emit, detail: "window:resize") })
            #expect(await TestLoop.wait {
                var width: gint = 0, height: gint = 0
                gtk_window_get_size(harness.container.windowPointer, &width, &height)
                return (width, height) == (640, 480)
            })
            // The page hears it when its turn comes: wait in the page for its own listener, not
            // for native code's emit (the first resize emitted may be an earlier size).
            let heard = try await harness.container.evaluateAsync("""
                const told = () => heard.some((event) => event[0] === 'resize' && event[1] === 640 && event[2] === 480);
                if (told()) return true;
                return await new Promise((resolve) => {
                  vitrine.window.on('resize', () => { if (told()) resolve(true); });
                  setTimeout(() => resolve(told()), 10000);   // the deadline
                });
                """)
            #expect(heard == true)

            // A second window: its own page and id; its closing is told to the first.
            let second = WebTestHarness.url("second.html")
            let opened = try await harness.container.evaluateAsync("""
                const out = {};
                out.second = await vitrine.window.open('second.html', {title: 'Second', width: 300, height: 200});
                try { await vitrine.window.open('https://elsewhere.example/'); out.foreign = 'opened'; } catch (e) { out.foreign = e.message; }
                return out;
                """)
            #expect(opened["second"] == ["id": 2])
            #expect(opened["foreign"]?.stringValue?.hasPrefix("window: open: https://elsewhere.example/ is not of the app's origins") == true)
            try await harness.fixture.nextLoad(of: second)
            let windows = harness.container.windows.windows
            #expect(windows.count == 2)
            let secondWindow = try #require(windows.last)
            #expect(secondWindow.windowTitle == "Second" && secondWindow.currentURL == second)
            let secondState = try await secondWindow.evaluateAsync("return await vitrine.window.state();")
            #expect(secondState["id"] == 2)
            // A window that closes under a pending evaluation takes its page along, and WebKit
            // may answer that evaluation "Unsupported result type" (a setTimeout in the page does
            // not order the close after the answer reaches Swift): the script that closes it
            // is not one whose answer is awaited for a result.
            #expect(try await secondWindow.evaluate("addEventListener('close-now', () => vitrine.window.close()); 'armed'") == "armed")
            _ = try? await secondWindow.evaluate("dispatchEvent(new Event('close-now'))")
            #expect(await TestLoop.wait { harness.container.windows.windows.count == 1 })
            try await harness.fixture.next(where: { $0 == .native(action: .emit, detail: "window:closed") })
            let afterClose = try await harness.container.evaluateAsync("return heard.filter((event) => event[0] === 'closed');")
            #expect(afterClose == [["closed", 2]])
            #expect(lastWindowClosed == 0)
            harness.container.close()
            #expect(lastWindowClosed == 1, "closing the last window ends the app")
        }
    }
}
