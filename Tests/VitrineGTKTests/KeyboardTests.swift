import CWebKitGTK
import Foundation
import Testing
import Vitrine
import VitrineTestSupport
@testable import VitrineGTK
import VitrineTestingGTK

extension WebKitTests {
    /// The on-screen keyboard on the demo's form page (Resources/demo/form.html), in a real
    /// WebKitGTK view: shown by focus, hidden by blur, the view shrunk and the field kept in
    /// sight, and — through AT-SPI, as a user of assistive technology would — typing.
    @Suite @MainActor
    struct KeyboardTests {
        /// <package>/Resources/demo and this folder's Support/, from this file's place.
        static let package = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        static let demo = package.appendingPathComponent("Resources/demo")
        static let form = URL(string: "app://app/form.html")!

        private func shown(_ mode: String) -> @Sendable (ContainerEvent) -> Bool {
            { $0 == .native(action: .keyboardShown, detail: mode) }
        }

        /// Focus shows the keys the field asks for (mapped: the show latency is measured
        /// from the focus call to that), blur hides them, the view gives up the keyboard's
        /// height and the focused field stays inside what remains.
        @Test func focusShowsTheKeysShrinksTheViewAndBlurHidesThem() async throws {
            var options = KioskOptions()
            options.onScreenKeyboard = true
            let fixture = try ContainerFixture(ConfiguratorFactory.make(for: .kiosk).fullscreen(false).windowSize(width: 1024, height: 600)
                .appDirectory(Self.demo).startURL(Self.form).kiosk(options))
            defer { fixture.close() }
            try await fixture.start(waitingFor: Self.form)
            let pane = fixture.container.stage.panes[0]
            let keyboard = try #require(pane.keyboard)
            // The name field has autofocus, which WebKit honours at the first rendering
            // update after the page gets the focus (when X gives it to the window): wait
            // for that, so that it cannot come later and bring the keys back after a blur.
            // Focused again here, the keys show either way — by the autofocus (whose event
            // `start` may have passed over) or by this call: the wait is for the keys.
            #expect(try await fixture.container.evaluateAsync("""
                for (let tries = 0; !document.hasFocus() && tries < 500; tries++) await new Promise((r) => setTimeout(r, 10));
                await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
                return document.hasFocus();
                """) == true, "the page never got the focus")
            _ = try await fixture.container.evaluate("document.getElementById('name').focus(), 1")
            #expect(await TestLoop.wait { keyboard.isMapped && keyboard.shownKeySet == "text" })
            #expect(fixture.log.events.filter(shown("text")).count == 1)
            let names = keyboard.accessibleNames
            #expect(Set(["q", "a", "Shift", "Backspace", "Enter", "Tab", "Space", "Hide keyboard"]).isSubset(of: Set(names)), "\(names)")
            #expect(await TestLoop.wait {
                gtk_widget_get_allocated_height(pane.widget) < gtk_widget_get_allocated_height(pane.rootWidget) - 150
            }, "the view did not give up the keyboard's height")

            _ = try await fixture.container.evaluate("document.activeElement.blur(), 1")
            try await fixture.next(where: { $0 == .native(action: .keyboardHidden, detail: "text") })
            #expect(!keyboard.isShown)

            // Hidden → the numeric pad for type=number; the time from focus to mapped keys
            // (and to the end of the slide), over a few blur/focus rounds.
            var mapped: [Duration] = [], slid: [Duration] = []
            for round in 0..<5 {
                _ = try await fixture.container.evaluate("document.activeElement.blur(), 1")
                #expect(await TestLoop.wait { !keyboard.isShown && !keyboard.isMapped },
                        "round \(round): shown \(keyboard.isShown), mapped \(keyboard.isMapped), \(fixture.log.events.suffix(3))")
                let start = ContinuousClock.now
                _ = try await fixture.container.evaluate("document.getElementById('quantity').focus(), 1")
                #expect(await TestLoop.wait { keyboard.isMapped && keyboard.shownKeySet == "numeric" })
                mapped.append(ContinuousClock.now - start)
                #expect(await TestLoop.wait { keyboard.isFullyShown })
                slid.append(ContinuousClock.now - start)
            }
            mapped.sort()
            slid.sort()
            print("on-screen keyboard show latency over 5 rounds: focus → keys mapped median \(mapped[2]), max \(mapped[4]);"
                  + " → slide-up finished median \(slid[2]), max \(slid[4])")
            #expect(mapped[2] < .seconds(1))
            #expect(!keyboard.accessibleNames.contains("q") && keyboard.accessibleNames.contains("5"))
            for digit in ["4", "2"] { keyboard.pressed(.character(normal: digit, shifted: digit)) }
            try await fixture.roundTrip()
            #expect(try await fixture.container.evaluate("document.getElementById('quantity').value") == "42")

            // The last field, far down: on focus it is scrolled into the shrunk view.
            _ = try await fixture.container.evaluate("window.scrollTo(0, 0); document.getElementById('notes').focus(), 1")
            try await fixture.next(where: shown("text"))
            #expect(await TestLoop.wait { keyboard.shownKeySet == "text" })
            try await fixture.roundTrip()
            let inSight = try await fixture.container.evaluateAsync("""
                await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
                const box = document.getElementById('notes').getBoundingClientRect();
                return box.top >= 0 && box.bottom <= innerHeight;
                """)
            #expect(inSight == .bool(true))

            // Enter in the textarea is a line break, not a submit; contenteditable takes text too.
            for key: KeyboardKey in [.character(normal: "a", shifted: "A"), .enter, .character(normal: "b", shifted: "B")] {
                keyboard.pressed(key)
            }
            try await fixture.roundTrip()
            #expect(try await fixture.container.evaluate("document.getElementById('notes').value") == "a\nb")
            #expect(try await fixture.container.evaluate("document.title").stringValue?.contains(#""submitted":0"#) == true)
            _ = try await fixture.container.evaluate("document.getElementById('message').focus(), 1")
            try await fixture.roundTrip()
            for key: KeyboardKey in [.shift, .character(normal: "h", shifted: "H"), .character(normal: "i", shifted: "I")] {
                keyboard.pressed(key)
            }
            try await fixture.roundTrip()
            #expect(try await fixture.container.evaluate("document.getElementById('message').textContent") == "Hi")
        }

        /// The keyboard goes with its container: no key keeps a `clicked` handler, the content
        /// manager no message handler, and a key pressed afterwards does nothing.
        @Test func aDroppedContainerReleasesItsKeyboardAndItsConnections() throws {
            TestLoop.start()
            weak var dropped: OnScreenKeyboard?
            let (button, manager): (gpointer, gpointer)
            do {
                var options = KioskOptions()
                options.onScreenKeyboard = true
                let container = WebContainer(configuration: try ConfiguratorFactory.make(for: .kiosk).fullscreen(false)
                    .startURL(URL(string: "app://nowhere/")!).kiosk(options).build())
                let keyboard = try #require(container.stage.panes.first?.keyboard)
                dropped = keyboard
                button = g_object_ref(gptr(try #require(keyboard.buttons.first?.button)))
                manager = g_object_ref(gptr(container.stage.panes[0].contentManager.pointer))
                #expect(Self.connected("clicked", on: button, type: gtk_button_get_type()))
                #expect(Self.connected("script-message-received", on: manager, type: webkit_user_content_manager_get_type()))
            }
            defer { g_object_unref(button); g_object_unref(manager) }
            #expect(dropped == nil, "the keyboard went with its container")
            #expect(!Self.connected("clicked", on: button, type: gtk_button_get_type()))
            #expect(!Self.connected("script-message-received", on: manager, type: webkit_user_content_manager_get_type()))
            gtk_button_clicked(button.assumingMemoryBound(to: GtkButton.self))  // nothing left to answer it, nothing crashes
        }

        /// A broken layout file leaves a kiosk with a usable keyboard: the plain fallback
        /// layout, and the error (file and problem) for the log.
        @Test func aMalformedLayoutFileFallsBackToThePlainLayout() throws {
            TestLoop.start()
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vitrine-layout-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder.appendingPathComponent("keyboard"), withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            try Data(#"{"name": "de", "rows": [["a", 7]]}"#.utf8).write(to: folder.appendingPathComponent("keyboard/de.json"))
            let manager = GObjectReference(adopting: webkit_user_content_manager_new()!)
            let view = GObjectReference<GtkWidget>(retaining: gtk_label_new("view"))
            let keyboard = OnScreenKeyboard(view: view.pointer, contentManager: manager, layoutName: "de",
                                            resources: ResourceLocator(environment: ["VITRINE_RESOURCES": folder.path]))
            #expect(keyboard.layout == .fallback)
            #expect(keyboard.layoutProblem == "keyboard layout \(folder.path)/keyboard/de.json: row 1, key 2: "
                    + #"expected a character such as "a" or a pair such as ["1", "!"], got 7"#)
            #expect(keyboard.buttons.contains { $0.key == .character(normal: "q", shifted: "Q") })
        }

        private static func connected(_ signal: String, on instance: gpointer, type: GType) -> Bool {
            g_signal_handler_find(instance, G_SIGNAL_MATCH_ID, g_signal_lookup(signal, type), 0, nil, nil, nil) != 0
        }

        /// Types into the form through AT-SPI clicks on the keys (python3-pyatspi under
        /// dbus-run-session; the program runs with its accessibility bridge on) and checks
        /// what the page saw: the values, the input events, the React-style state, the
        /// numeric pad, the submit and the hide on blur.
        @Test func typingThroughAssistiveTechnologyReachesThePageAsInput() throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vitrine-keyboard-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let config = folder.appendingPathComponent("touch.toml"), events = folder.appendingPathComponent("events.jsonl")
            try """
                preset = "kiosk"
                app-dir = "\(Self.demo.path)"
                start-url = "app://app/form.html"
                title-follows-page = true
                [window]
                fullscreen = false
                [kiosk]
                on-screen-keyboard = true
                [keyboard]
                layout = "us"
                """.write(to: config, atomically: true, encoding: .utf8)
            let script = Self.package.appendingPathComponent("Tests/VitrineGTKTests/Support/keyboard_atspi.py").path
            try AccessibilityBus.forgetDisplayProperty()
            let run = try runProcess("/usr/bin/dbus-run-session", ["--", "/usr/bin/python3", script,
                                                                    try BuiltProducts.path("vitrine"), config.path, events.path], timeout: 120)
            let line = try #require(run.stdout.split(separator: "\n").last, "no result; stderr: \(run.stderr)")
            let result = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
            #expect(result["error"] == nil, "\(line)")
            let state = try #require(result["state"] as? [String: Any], "\(line)")
            #expect(state["name"] as? String == "Hi")
            #expect(state["controlled"] as? String == "ok" && state["state"] as? String == "ok", "the controlled input's state")
            #expect(state["quantity"] as? String == "47")
            #expect(state["submitted"] as? Int == 1)
            let inputs = try #require(state["inputs"] as? [String: Int])
            #expect(inputs == ["name": 2, "controlled": 2, "quantity": 4], "one input event per key")
            #expect(result["shifted names"] as? Bool == true && result["unshifted after a letter"] as? Bool == true)
            #expect(result["hidden on blur"] as? Bool == true)
            let pad = try #require(result["numeric pad"] as? [String])
            #expect(pad.contains("5") && !pad.contains("q"))
            let log = try String(contentsOf: events, encoding: .utf8)
            #expect(log.contains(#""action":"keyboard-shown","detail":"text""#) && log.contains(#""action":"keyboard-hidden""#))
            if let latency = result["numeric pad latency ms"] { print("numeric pad after Tab, through AT-SPI: \(latency) ms") }
        }
    }
}
