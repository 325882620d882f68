import CWebKitGTK
import Foundation
import Testing
import Vitrine
@testable import VitrineGTK
import VitrineTestingGTK
import VitrineTestSupport

extension WebKitTests {
    /// The Swift API for the tray (`TrayFeature.setTray`): an icon file is judged by its
    /// content (GLib's sniffing, then GdkPixbuf), whatever its name, and a kiosk has no tray.
    /// Each refusal comes before the session bus is touched.
    @Suite @MainActor
    struct TrayEmbedderTests {
        @Test func anEmbeddersIconFileMustBeAPNGOrSVGAndAKioskHasNoTray() throws {
            let harness = try WebTestHarness(pages: [
                "index.html": "<!doctype html><title>tray</title>",
                "text.png": "just text, named like an image",
                "html.svg": "<!doctype html><p>a page named like an SVG",
            ])
            defer { harness.close() }
            // A PNG's signature, then nothing: sniffed as a PNG, but no image.
            try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0]).write(to: harness.directory.appendingPathComponent("broken.png"))

            func refusal(_ icon: TrayIcon) -> String? {
                do { try harness.container.feature(TrayFeature.self)!.setTray(icon) { _ in }; return nil } catch { return error.message }
            }
            #expect(refusal(try TrayIcon(image: .file("text.png"))) == #"tray: icon "text.png" is text/plain, not a PNG or SVG image"#)
            #expect(refusal(try TrayIcon(image: .file("html.svg"))) == #"tray: icon "html.svg" is text/html, not a PNG or SVG image"#)
            #expect(refusal(try TrayIcon(image: .file("broken.png")))?.hasPrefix(#"tray: icon "broken.png" cannot be decoded"#) == true)
            #expect(refusal(try TrayIcon(image: .file("missing.png"))) == #"tray: icon "missing.png" is not a file of the app's folder"#)
            #expect(harness.container.feature(TrayFeature.self)!.icon == nil)

            let kiosk = try WebTestHarness(pages: ["index.html": "<!doctype html><title>kiosk</title>"]) { $0.kiosk(KioskOptions()) }
            defer { kiosk.close() }
            #expect(throws: ScriptMessageError("tray: a kiosk has no tray icon")) {
                try kiosk.container.feature(TrayFeature.self)!.setTray(try TrayIcon(image: .themed("mail-unread"))) { _ in }
            }
        }
    }
}
