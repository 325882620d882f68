import Foundation
import Testing
import VitrineTestSupport

extension WebKitTests {
    /// `[printing]`: the real `vitrine` prints a page's `window.print()` with no dialog — to
    /// a PDF file, and through a real CUPS scheduler to a cups-pdf queue — each job an event
    /// line; a flood prints one job and refuses the rest; a sandboxed frame prints nothing.
    @Suite
    struct PrintingProgramTests {
        static let ticket = """
            <!doctype html><title>ticket</title><h1>TICKET 4711 PAID</h1>
            <script>addEventListener('load', () => print());</script>
            """

        /// Not a kiosk: without `[printing]` taking the request, GTK's print dialog would open.
        @Test func aPagePrintsToAPDFFileWithNoDialog() throws {
            let server = try LoopbackHTTPServer(pages: ["ticket.html": Self.ticket])
            defer { server.stop() }
            let folder = try ConfigFolder()
            let output = "file://\(folder.path)/receipt.pdf"
            let config = try folder.write("app.toml", """
                start-url = "\(server.url("ticket.html").absoluteString)"
                [printing]
                output-uri = "\(output)"
                paper-size = "a5"
                margins = 5
                """)
            let run = try ProgramRun(["--config", config, "--new-instance", "--events", folder.path + "/events.jsonl"])
            defer { run.kill() }
            let job = try #require(run.waitForEvent(timeout: 60) { $0["type"] as? String == "print" }, "stderr: \(run.standardError)")
            #expect(job["outcome"] as? String == "printed", "\(job)")
            #expect(job["queue"] as? String == output && job["job"] as? Int == 1)
            #expect(pdfText(folder.path + "/receipt.pdf").contains("TICKET 4711 PAID"))
            #expect(!windowNames().contains("Print"), "no print dialog: \(windowNames())")
            #expect(!run.events.contains { $0["action"] as? String == "blocked-dialog" })
            #expect(run.end())
        }

        /// A locked-down kiosk, a real `cupsd` and a cups-pdf queue: the page's text in the PDF.
        @Test func aKioskPrintsThroughCUPSToItsQueue() throws {
            let cups = try CUPSServer(queue: "Tickets")
            defer { cups.stop() }
            let server = try LoopbackHTTPServer(pages: ["ticket.html": Self.ticket])
            defer { server.stop() }
            let folder = try ConfigFolder()
            let config = try folder.write("kiosk.toml", """
                preset = "kiosk"
                start-url = "\(server.url("ticket.html").absoluteString)"
                [window]
                fullscreen = false
                [printing]
                printer = "Tickets"
                """)
            // check-config knows the queue; a queue CUPS does not have is a warning, not a failure.
            let checked = try runProcess(try BuiltProducts.path("vitrine"), ["check-config", config], environment: cups.environment)
            #expect(checked.status == 0 && !checked.stderr.contains("warning"), "\(checked)")
            let other = try folder.write("other.toml", "[printing]\nprinter = \"Nope\"\n")
            let warned = try runProcess(try BuiltProducts.path("vitrine"), ["check-config", other], environment: cups.environment)
            #expect(warned.status == 0 && warned.stdout.contains("OK"), "\(warned)")
            #expect(warned.stderr.contains("warning: printer 'Nope' is not a CUPS queue here (known: Tickets)"), "\(warned.stderr)")

            let started = Date()
            let run = try ProgramRun(["--config", config, "--new-instance", "--events", folder.path + "/events.jsonl"],
                                     environment: cups.environment, watching: ["/root/PDF/x"])
            defer { run.kill() }
            let job = try #require(run.waitForEvent(timeout: 60) { $0["type"] as? String == "print" }, "stderr: \(run.standardError)")
            #expect(job["outcome"] as? String == "printed" && job["queue"] as? String == "Tickets", "\(job)")
            var text = ""
            run.wait(timeout: 60) {
                text = CUPSServer.pdfs(since: started).map(pdfText).joined()
                return text.contains("TICKET 4711 PAID")
            }
            #expect(text.contains("TICKET 4711 PAID"), "cups-pdf's output: \(CUPSServer.pdfs(since: started))")
            #expect(run.end())
        }

        /// A sandboxed frame's print() is WebKit's to refuse (no `allow-modals`), and a frame
        /// of another origin never loads in a kiosk (its chain cancels it); then the page
        /// floods print(): WebKit returns from each call once its job is done, so the loop's
        /// next calls come too soon: one job, every other call refused and logged, none queued.
        @Test func aFloodPrintsOneJobAndASandboxedFramePrintsNothing() throws {
            let page = """
                <!doctype html><title>flood</title><h1>FLOOD PAGE</h1>
                <iframe src="FOREIGN"></iframe>
                <iframe sandbox="allow-scripts" srcdoc="<script>print(); parent.postMessage('tried', '*');</script>"></iframe>
                <script>
                addEventListener('message', () => {
                  for (let i = 0; i < 5; i++) print();
                  fetch('/beacon');
                });
                </script>
                """
            let server = try LoopbackHTTPServer(pages: ["flood.html": "", "beacon": "ok",
                                                        "foreign.html": "<script>print(); fetch('/foreign-printed');</script>"])
            defer { server.stop() }
            let foreign = server.url("foreign.html", host: "localhost").absoluteString
            try page.replacingOccurrences(of: "FOREIGN", with: foreign)
                .write(to: server.directory.appendingPathComponent("flood.html"), atomically: true, encoding: .utf8)
            let folder = try ConfigFolder()
            let config = try folder.write("kiosk.toml", """
                preset = "kiosk"
                start-url = "\(server.url("flood.html").absoluteString)"
                [window]
                fullscreen = false
                [printing]
                output-uri = "file://\(folder.path)/out.pdf"
                """)
            let run = try ProgramRun(["--config", config, "--new-instance", "--events", folder.path + "/events.jsonl"],
                                     watching: [server.requestLog])
            defer { run.kill() }
            #expect(server.waitForRequests(timeout: 60) { $0.contains("/beacon") }, "stderr: \(run.standardError)")
            #expect(run.waitForEvent(timeout: 60) { $0["type"] as? String == "print" && $0["outcome"] as? String == "printed" } != nil)
            #expect(run.waitForEvent { $0["type"] as? String == "navigation" && $0["url"] as? String == foreign
                                       && $0["policy"] as? String == "cancel" } != nil, "the foreign frame is refused")
            let jobs = run.events.filter { $0["type"] as? String == "print" }
            #expect(jobs.compactMap { $0["job"] as? Int }.sorted() == [1, 2, 3, 4, 5], "the sandboxed frame's call made no job: \(jobs)")
            #expect(jobs.filter { $0["outcome"] as? String == "printed" }.map { $0["job"] as? Int } == [1])
            #expect(jobs.filter { $0["outcome"] as? String == "refused" }.count == 4, "\(jobs)")
            #expect(pdfText(folder.path + "/out.pdf").contains("FLOOD PAGE"))
            #expect(!server.requestedPaths.contains("/foreign-printed"))
            #expect(run.end())
        }

        /// The names of the display's windows (`xwininfo -root -tree`).
        private func windowNames() -> [String] {
            let tree = (try? runProcess("/usr/bin/xwininfo", ["-root", "-tree"]))?.stdout ?? ""
            return tree.split(separator: "\n").compactMap { line in
                guard let open = line.firstIndex(of: "\""), let close = line[line.index(after: open)...].firstIndex(of: "\"") else { return nil }
                return String(line[line.index(after: open)..<close])
            }
        }
    }
}
