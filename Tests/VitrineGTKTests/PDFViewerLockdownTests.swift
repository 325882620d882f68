import CWebKitGTK
import Foundation
import Testing
import Vitrine
import VitrineGTK
import VitrineTestingGTK

extension WebKitTests {
    /// WebKit's built-in PDF viewer (PDF.js) in a locked-down kiosk: the document, without
    /// the toolbar whose buttons open files, print and download. Unlocked, the toolbar is there.
    @Suite
    @MainActor
    struct PDFViewerLockdownTests {
        /// A one-page PDF (300×200 pt) with one line of text, written by hand.
        static let pdf: String = {
            let stream = "BT /F1 24 Tf 40 100 Td (PDF page) Tj ET"
            let objects = [
                "<< /Type /Catalog /Pages 2 0 R >>",
                "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 200] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
                "<< /Length \(stream.utf8.count) >>\nstream\n\(stream)\nendstream",
                "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
            ]
            var text = "%PDF-1.4\n", offsets: [Int] = []
            for (index, object) in objects.enumerated() {
                offsets.append(text.utf8.count)
                text += "\(index + 1) 0 obj\n\(object)\nendobj\n"
            }
            let table = text.utf8.count
            text += "xref\n0 \(objects.count + 1)\n0000000000 65535 f \n"
            text += offsets.map { String(repeating: "0", count: 10 - String($0).count) + "\($0) 00000 n \n" }.joined()
            text += "trailer\n<< /Size \(objects.count + 1) /Root 1 0 R >>\nstartxref\n\(table)\n%%EOF\n"
            return text
        }()

        /// A capture of the view: its size and the colour at a point.
        struct Capture {
            let width: Int, height: Int
            private let colours: [UInt32]

            init?(_ path: String) {
                var error: UnsafeMutablePointer<GError>?
                guard let pixbuf = gdk_pixbuf_new_from_file(path, &error) else { g_clear_error(&error); return nil }
                defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
                width = Int(gdk_pixbuf_get_width(pixbuf)); height = Int(gdk_pixbuf_get_height(pixbuf))
                let stride = Int(gdk_pixbuf_get_rowstride(pixbuf)), channels = Int(gdk_pixbuf_get_n_channels(pixbuf))
                let pixels = gdk_pixbuf_get_pixels(pixbuf)!
                var colours: [UInt32] = []
                for y in 0..<height {
                    for x in 0..<width {
                        let p = pixels + y * stride + x * channels
                        colours.append(UInt32(p[0]) << 16 | UInt32(p[1]) << 8 | UInt32(p[2]))
                    }
                }
                self.colours = colours
            }

            /// How many pixels are pure white: the page's paper (the viewer around it is grey).
            var whitePixels: Int { colours.lazy.filter { $0 == 0xFFFFFF }.count }

            /// The distinct colours in the top `rows` rows: a toolbar's text and buttons make many.
            func coloursInTopStrip(rows: Int) -> Int { Set(colours.prefix(rows * width)).count }
        }

        /// Opens the PDF and captures the view once the viewer has drawn the document: a
        /// page's worth of white paper (at least 200×50 px; the page is 300×200 pt). Where
        /// the page sits depends on the view's height and PDF.js's zoom, so no one point is
        /// sure to be on it.
        private func captureDrawnPDF(lockdown: Bool) async throws -> Capture {
            let harness = try WebTestHarness(pages: ["doc.pdf": Self.pdf]) { $0.kiosk(KioskOptions(lockdown: lockdown)) }
            defer { harness.close() }
            try await harness.open("doc.pdf")
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("vitrine-pdf-\(UUID().uuidString).png").path
            defer { try? FileManager.default.removeItem(atPath: path) }
            var capture: Capture?, last = "no capture"
            let deadline = ContinuousClock.now + .seconds(20)
            while ContinuousClock.now < deadline {
                try await harness.container.snapshot(to: path)
                if let shot = Capture(path) {
                    if shot.whitePixels >= 200 * 50 {
                        capture = shot
                        break
                    }
                    last = "\(shot.width)×\(shot.height), \(shot.whitePixels) white pixels, \(shot.coloursInTopStrip(rows: shot.height)) colours"
                }
                try await Task.sleep(for: .milliseconds(100))
            }
            return try #require(capture, "the viewer drew the document (lockdown: \(lockdown); last capture: \(last); at \(harness.container.currentURL?.absoluteString ?? "nothing"))")
        }

        @Test func aLockedDownKiosksPDFViewerShowsTheDocumentWithoutItsToolbar() async throws {
            let locked = try await captureDrawnPDF(lockdown: true)
            let unlocked = try await captureDrawnPDF(lockdown: false)
            let lockedStrip = locked.coloursInTopStrip(rows: 32), unlockedStrip = unlocked.coloursInTopStrip(rows: 32)
            #expect(unlockedStrip > 20, "unlocked, PDF.js's toolbar is there (\(unlockedStrip) colours)")
            #expect(lockedStrip < 8, "locked down, no toolbar: the page and the viewer's background only (\(lockedStrip) colours)")
        }
    }
}
