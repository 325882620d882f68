import CWebKitGTK
import Foundation
import Testing
import Vitrine
@testable import VitrineGTK
import VitrineTestingGTK

extension WebKitTests {
    /// The `print` capability from a real page: `vitrine.print.toPDF` returns a PDF whose
    /// text (pdftotext) is the page's; frames, bad options and ungranted pages are refused.
    @Suite @MainActor
    struct PrintCapabilityTests {
        static let page = """
            <!doctype html><html><head><title>print</title></head><body>
            <h1>Invoice 4711 for Vitrine</h1><p>Printed without a dialog.</p>
            <iframe sandbox="allow-scripts" srcdoc="<script>vitrine.print.toPDF().then(() => parent.postMessage('printed', '*'),
              (e) => parent.postMessage(e.message, '*'))</script>"></iframe>
            <iframe src="inner.html"></iframe>
            <script>
            const frameSaid = [];
            window.framesDone = new Promise((resolve) => addEventListener('message', (event) => {
              frameSaid.push(event.data);
              if (frameSaid.length === 2) resolve(frameSaid.slice().sort());
            }));
            </script></body></html>
            """
        static let inner = """
            <!doctype html><script>
            vitrine.print.toPDF().then(() => parent.postMessage('printed', '*'), (e) => parent.postMessage(e.message, '*'));
            </script>
            """

        /// pdftotext's reading of `bytes`.
        private static func text(ofPDF bytes: Data) throws -> String {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("vitrine-print-\(UUID().uuidString).pdf")
            try bytes.write(to: file)
            defer { try? FileManager.default.removeItem(at: file) }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/pdftotext")
            process.arguments = [file.path, "-"]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return text
        }

        @Test func aGrantedPageGetsItselfAsPDFAndNobodyElseDoes() async throws {
            let app = Origin(string: "app://\(WebTestHarness.host)")!
            let harness = try WebTestHarness(pages: ["index.html": Self.page, "inner.html": Self.inner], configure: {
                $0.grantCapabilities([.print], to: app)
            })
            defer { harness.close() }
            try await harness.open("index.html")

            let encoded = try await harness.container.evaluateAsync("""
                const pdf = await vitrine.print.toPDF({pageSize: 'a5', landscape: true, margins: 10});
                return btoa(Array.from(pdf, (byte) => String.fromCharCode(byte)).join(''));
                """)
            let base64 = try #require(encoded.stringValue)
            let bytes = try #require(Data(base64Encoded: base64))
            #expect(bytes.starts(with: Data("%PDF".utf8)))
            let text = try Self.text(ofPDF: bytes)
            #expect(text.contains("Invoice 4711 for Vitrine"), "\(text)")
            #expect(text.contains("Printed without a dialog."))

            // Bad options are refused before anything prints.
            let refused = try await harness.container.evaluateAsync("""
                const out = [];
                for (const options of [{pageSize: 'a0'}, {pageSize: '../x'}, {margins: 101}, {margins: 2.5}, {landscape: 'yes'}]) {
                  try { await vitrine.print.toPDF(options); out.push('printed'); } catch (e) { out.push(e.message); }
                }
                try { await vitrine.invoke('print', {action: 'fax'}); out.push('faxed'); } catch (e) { out.push(e.message); }
                return out;
                """)
            let sizes = "print: pdf: pageSize is one of a3, a4, a5, a6, letter, legal or WIDTHxHEIGHTmm"
            let margins = "print: pdf: margins is a whole number of millimetres from 0 to 100"
            #expect(refused == [.string(sizes), .string(sizes), .string(margins), .string(margins),
                                #"print: pdf: field "landscape" must be a boolean, got a string"#,
                                #"print: field "action" must be one of "dialog", "pdf", got "fax""#])

            // Frames inside the page: a sandboxed one (opaque origin) and a same-origin one.
            let said = try await harness.container.evaluateAsync("return await framesDone;")
            #expect(said == [
                #"capability "print" is not granted to an opaque origin (a sandboxed frame) — add it to [capabilities] in the config"#,
                "print: only the window's top document may print its page, not a frame inside it",
            ])
        }

        @Test func aPageNotGrantedPrintIsRefused() async throws {
            let harness = try WebTestHarness(pages: ["index.html": "<!doctype html><p>no grant</p>"])
            defer { harness.close() }
            try await harness.open("index.html")
            let refused = try await harness.container.evaluateAsync("""
                try { await vitrine.print.toPDF(); return 'printed'; } catch (e) { return e.message; }
                """)
            #expect(refused == #"capability "print" is not granted to app://test — add it to [capabilities] in the config"#)
        }
    }
}
