import CWebKitGTK
import Foundation
import Testing
import Vitrine
@testable import VitrineGTK
import VitrineTestingGTK

/// The URIs the test's drag source offers (its `drag-data-get` handler reads them).
@MainActor private var offeredURIs: [String] = []

/// `drag-data-get`: `void (*)(GtkWidget*, GdkDragContext*, GtkSelectionData*, guint, guint, gpointer)`.
private let onDragDataGet: @convention(c) (OpaquePointer?, OpaquePointer?, OpaquePointer?, guint, guint, gpointer?) -> Void = {
    _, _, selection, _, _, _ in
    onMainLoop(selection) { selection in
        offeredURIs.withCStringArray { array in
            _ = gtk_selection_data_set_uris(selection, UnsafeMutableRawPointer(array).assumingMemoryBound(to: UnsafeMutablePointer<gchar>?.self))
        }
    }
}

extension WebKitTests {
    /// Files dragged from another window (a real GTK drag source, the pointer moved by
    /// xdotool under Xvfb) onto a page granted `drop`: it hears of the regular file only
    /// (not the symlink, not the web URL) and reads it as a chosen file.
    @Suite @MainActor
    struct FileDropTests {
        static let page = """
            <!doctype html><html><head><title>drop</title></head><body style="margin:0">
            <div style="width:100vw;height:100vh;background:#eef">drop here</div>
            <script>
            window.dropped = new Promise((resolve) => vitrine.on('files:dropped', resolve));
            </script></body></html>
            """

        @Test func aFileDraggedFromAnotherWindowReachesThePageAndALinkDoesNot() async throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vitrine-drop-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: folder) }
            try "dropped by the user\n".write(toFile: folder + "/report.txt", atomically: true, encoding: .utf8)
            try "secret\n".write(toFile: folder + "/secret.txt", atomically: true, encoding: .utf8)
            try FileManager.default.createSymbolicLink(atPath: folder + "/link.txt", withDestinationPath: folder + "/secret.txt")
            offeredURIs = [URL(fileURLWithPath: folder + "/report.txt").absoluteString,
                           URL(fileURLWithPath: folder + "/link.txt").absoluteString, "https://example.org/x.txt"]

            let app = Origin(string: "app://\(WebTestHarness.host)")!
            let harness = try WebTestHarness(pages: ["index.html": Self.page], configure: {
                $0.grantCapabilities([.drop, .dialog], to: app)
            })
            defer { harness.close() }
            try await harness.open("index.html")
            try await Self.dragFromAnotherWindow(onto: harness) { drag in
                let dropped = try await harness.container.evaluateAsync("return await dropped;")
                #expect(dropped == ["files": [["path": .string(folder + "/report.txt"), "size": 20]]])

                let read = try await harness.container.evaluateAsync("""
                    const out = [await vitrine.dialog.readText(\(JSONValue.string(folder + "/report.txt").jsonText))];
                    try { await vitrine.dialog.readText(\(JSONValue.string(folder + "/link.txt").jsonText)); out.push('read'); }
                    catch (e) { out.push(e.message); }
                    return out;
                    """)
                #expect(read == ["dropped by the user\n", .string("dialog: read: \(folder)/link.txt was not chosen in a dialog")])
                drag.waitUntilExit()
                #expect(harness.events.events.contains { event in
                    if case .native(.filesDropRefused, let detail) = event { return detail.contains("link.txt") }
                    return false
                })
            }
        }

        /// A page granted `drop` that has not used the bridge (so has not registered, and
        /// listens to nothing): the drop is refused and said so, and WebKit never opens the
        /// file in its place.
        @Test func aDropOntoAGrantedPageThatNeverUsedTheBridgeIsRefused() async throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vitrine-drop-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: folder) }
            try "dropped by the user\n".write(toFile: folder + "/report.txt", atomically: true, encoding: .utf8)
            offeredURIs = [URL(fileURLWithPath: folder + "/report.txt").absoluteString]
            let app = Origin(string: "app://\(WebTestHarness.host)")!
            let page = Self.page.replacingOccurrences(of: "window.dropped = new Promise((resolve) => vitrine.on('files:dropped', resolve));", with: "")
            let harness = try WebTestHarness(pages: ["index.html": page], configure: { $0.grantCapabilities([.drop], to: app) })
            defer { harness.close() }
            try await harness.open("index.html")
            try await Self.dragFromAnotherWindow(onto: harness) { _ in
                #expect(await TestLoop.wait {
                    harness.events.events.contains { event in
                        if case .native(.filesDropRefused, let detail) = event { return detail == "the page does not use the bridge" }
                        return false
                    }
                }, "\(harness.events.events)")
            }
            #expect(harness.container.currentURL?.scheme == "app", "WebKit did not open the file: \(String(describing: harness.container.currentURL))")
        }

        /// A real GTK drag source in another window, dragged by xdotool onto the harness's
        /// view and released there; `whileDragging` runs meanwhile, with the running xdotool,
        /// and the source window goes after it.
        static func dragFromAnotherWindow(onto harness: WebTestHarness,
                                          whileDragging body: @MainActor (Process) async throws -> Void) async throws {
            let window = harness.container.windowPointer
            gtk_window_move(window, 300, 0)
            gtk_window_resize(window, 400, 300)

            // The drag source: another window at the screen's top left.
            let source = gtk_window_new(GTK_WINDOW_TOPLEVEL)!
            defer { gtk_widget_destroy(source) }
            let label = gtk_event_box_new()!
            gtk_container_add(cast(label), gtk_label_new("drag me"))
            gtk_container_add(cast(source), label)
            gtk_window_set_default_size(cast(source), 200, 200)
            gtk_window_move(cast(source), 0, 0)
            gtk_drag_source_set(label, GDK_BUTTON1_MASK, nil, 0, GDK_ACTION_COPY)
            gtk_drag_source_add_uri_targets(label)
            let handler = g_signal_connect_data(gptr(label), "drag-data-get", unsafeBitCast(onDragDataGet, to: GCallback.self),
                                                nil, nil, GConnectFlags(rawValue: 0))
            defer { g_signal_handler_disconnect(gptr(label), handler) }
            gtk_widget_show_all(source)
            #expect(await TestLoop.wait { gtk_widget_get_mapped(source) != 0 && gtk_widget_get_mapped(harness.container.window) != 0 })

            // Where the view is on the screen.
            var viewX: gint = 0, viewY: gint = 0
            gdk_window_get_origin(gtk_widget_get_window(cast(harness.container.stage.activePane.webView)), &viewX, &viewY)
            let drag = Process()
            drag.executableURL = URL(fileURLWithPath: "/usr/bin/xdotool")
            // A user's drag: press on the source, move past GTK's drag threshold, over the view, release.
            drag.arguments = ["mousemove", "100", "100", "sleep", "0.3", "mousedown", "1", "sleep", "0.2",
                              "mousemove", "120", "120", "sleep", "0.2", "mousemove", "180", "140", "sleep", "0.2",
                              "mousemove", String(viewX + 100), String(viewY + 100), "sleep", "0.3",
                              "mousemove", String(viewX + 110), String(viewY + 110), "sleep", "0.3", "mouseup", "1"]
            try drag.run()
            defer { drag.waitUntilExit() }
            try await body(drag)
        }
    }
}
