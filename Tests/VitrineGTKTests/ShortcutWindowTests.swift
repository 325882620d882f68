import CWebKitGTK
import Foundation
import Testing
import Vitrine
@testable import VitrineGTK
import VitrineTestingGTK
import VitrineTestSupport

extension WebKitTests {
    /// Global shortcuts under Xvfb: keys pressed by xdotool (XTEST, as another program's
    /// keyboard would) reach the page that registered them; a sandboxed frame cannot
    /// register, and a page's shortcuts go when it does.
    @Suite @MainActor
    struct ShortcutWindowTests {
        static let page = """
            <!doctype html><title>keys</title><script>
            window.pressed = [];
            vitrine.shortcuts.on('shortcut', (key) => { pressed.push(key.id + ' ' + key.accelerator); document.title = String(pressed.length); });
            </script>
            """

        /// Presses `keys` (xdotool's spelling, `ctrl+alt+k`) on the X display.
        private func press(_ keys: String) throws {
            let run = try runProcess("/usr/bin/xdotool", ["key", keys], timeout: 20)
            #expect(run.status == 0, "\(run.stderr)")
        }

        @Test func aPressedShortcutReachesThePageThatRegisteredItAndGoesWithIt() async throws {
            let app = Origin(string: "app://\(WebTestHarness.host)")!
            let harness = try WebTestHarness(pages: ["index.html": Self.page, "other.html": Self.page]) {
                $0.grantCapabilities([.shortcuts], to: app)
            }
            defer { harness.close() }
            try await harness.open("index.html")
            #expect(try await harness.container.evaluateAsync("return await vitrine.shortcuts.register('Ctrl+Alt+K', 'search');") == "Ctrl+Alt+K")
            try press("ctrl+alt+k")
            #expect(await harness.container.valueInPage("pressed.length === 1 && pressed[0]") == "search Ctrl+Alt+K")
            // Caps Lock on does not stop it.
            try press("Caps_Lock")
            try press("ctrl+alt+k")
            try press("Caps_Lock")
            #expect(await harness.container.valueInPage("pressed.length === 2 && pressed[1]") == "search Ctrl+Alt+K")

            // A sandboxed frame of the page cannot register (its origin is opaque).
            let sandboxed = try await harness.container.evaluateAsync("""
                const frame = document.createElement('iframe');
                frame.sandbox = 'allow-scripts';
                frame.srcdoc = `<script>vitrine.shortcuts.register('Ctrl+Alt+J', 'stolen')
                  .then(() => parent.postMessage('registered', '*'), (e) => parent.postMessage(e.message, '*'));<\\/script>`;
                const answer = new Promise((resolve) => addEventListener('message', (m) => resolve(m.data), {once: true}));
                document.body.append(frame);
                return await answer;
                """)
            #expect((sandboxed.stringValue ?? "").contains("is not granted"), "\(sandboxed)")

            // Unregistered: the key is let go; registered again and navigated away: gone too.
            #expect(try await harness.container.evaluateAsync("return await vitrine.shortcuts.unregister('search');") == true)
            #expect(try await harness.container.evaluateAsync("return await vitrine.shortcuts.unregister('search');") == false)
            _ = try await harness.container.evaluateAsync("return await vitrine.shortcuts.register('Ctrl+Alt+K', 'search');")
            harness.container.startLoading(WebTestHarness.url("other.html"))
            #expect(await harness.waitForLoad(WebTestHarness.url("other.html")))
            // The new page registers a key of its own: pressing the old one first, then its
            // own, it hears only its own.
            #expect(try await harness.container.evaluateAsync("return await vitrine.shortcuts.register('Ctrl+Alt+J', 'next');") == "Ctrl+Alt+J")
            try press("ctrl+alt+k")
            try press("ctrl+alt+j")
            #expect(await harness.container.valueInPage("pressed.length >= 1 && pressed.join(',')") == "next Ctrl+Alt+J")
            let shortcuts = harness.events.events.compactMap { event -> String? in
                if case .native(.shortcut, let detail) = event { return detail }
                return nil
            }
            #expect(shortcuts == ["search Ctrl+Alt+K", "search Ctrl+Alt+K", "next Ctrl+Alt+J"])
            #expect(harness.container.service(ShortcutService.self)?.unregisterShortcut(id: "next") == true)
        }

        @Test func aMoveToKeysAnotherProgramHoldsKeepsTheOldKeys() async throws {
            let app = Origin(string: "app://\(WebTestHarness.host)")!
            let harness = try WebTestHarness(pages: ["index.html": Self.page]) { $0.grantCapabilities([.shortcuts], to: app) }
            defer { harness.close() }
            try await harness.open("index.html")
            #expect(try await harness.container.evaluateAsync("return await vitrine.shortcuts.register('Ctrl+Alt+K', 'search');") == "Ctrl+Alt+K")
            // Another program (its own X connection) holds Ctrl+Alt+J.
            let other = try #require(XOpenDisplay(nil))
            defer { XCloseDisplay(other) }
            let keycode = XKeysymToKeycode(other, KeySym(XK_j))
            XGrabKey(other, Int32(keycode), UInt32(ControlMask | Mod1Mask), XDefaultRootWindow(other), 1, GrabModeAsync, GrabModeAsync)
            XSync(other, 0)
            let moved = try await harness.container.evaluateAsync("""
                try { return await vitrine.shortcuts.register('Ctrl+Alt+J', 'search'); } catch (e) { return e.message; }
                """)
            #expect(moved == "shortcuts: Ctrl+Alt+J is taken by another program")
            // `search` is still on the keys it held: they reach the page.
            try press("ctrl+alt+k")
            #expect(await harness.container.valueInPage("pressed.length === 1 && pressed[0]") == "search Ctrl+Alt+K")
            #expect(harness.container.service(ShortcutService.self)?.unregisterShortcut(id: "search") == true)
        }
    }
}
