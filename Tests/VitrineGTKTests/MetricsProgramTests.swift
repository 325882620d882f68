import Foundation
import Testing
import VitrineTestSupport

extension WebKitTests {
    /// `[metrics] textfile`: the `vitrine` program writes its metrics where Debian's
    /// `prometheus-node-exporter` (started here on its own loopback port, textfile
    /// collector only) reads them, and they are scraped over HTTP as Prometheus would.
    @Suite
    struct MetricsProgramTests {
        /// The page calls `ping`, then tries to leave for an origin the kiosk refuses.
        static let page = """
            <!doctype html><title>metrics</title><script>
            vitrine.invoke('ping', 1).then(() => { location.href = 'http://refused.invalid/'; });
            </script>
            """

        @Test func nodeExporterServesTheKiosksMetricsAndTheirEndAtExit() throws {
            let server = try LoopbackHTTPServer(pages: ["index.html": Self.page])
            defer { server.stop() }
            let folder = try ConfigFolder()
            let prom = try folder.makeFolder("textfile")
            let config = try kioskConfig(in: folder, server: server, metrics: "textfile = \"textfile/vitrine.prom\"\ninterval = 0.2")
            let port = try freePort()
            let exporter = try start("/usr/bin/prometheus-node-exporter", [
                "--collector.disable-defaults", "--collector.textfile", "--collector.textfile.directory=\(prom)",
                "--web.listen-address=127.0.0.1:\(port)",
            ])
            defer { stop(exporter) }
            let kiosk = try ProgramRun(["--config", config, "--new-instance"])
            defer { kiosk.kill() }

            let refused = #"vitrine_navigations_total{handler="origin-allowlist",phase="request",policy="cancel"}"#
            let resolved = #"vitrine_script_messages_total{outcome="resolved"}"#
            let scraped = try #require(scrape(port: port, folder: prom, within: 60) { value(refused, in: $0) == 1 && value(resolved, in: $0) == 1 },
                                       "the refused navigation and the resolved message never reached the scrape")
            #expect(value("node_textfile_scrape_error", in: scraped) == 0, "node_exporter read the file without error")
            #expect(value("vitrine_up", in: scraped) == 1)
            #expect(value("vitrine_loads_started_total", in: scraped) == 1)
            #expect(value("vitrine_loads_finished_total", in: scraped) == 1)
            #expect(value(#"vitrine_navigations_total{handler="default-allow",phase="request",policy="allow"}"#, in: scraped) == 1,
                    "the start page, allowed by the end of the kiosk's chain")
            let started = try #require(value("vitrine_start_time_seconds", in: scraped))
            let loaded = try #require(value("vitrine_last_successful_load_timestamp_seconds", in: scraped))
            #expect(started <= loaded && loaded <= Date().timeIntervalSince1970)
            #expect(abs(started - Date().timeIntervalSince1970) < 120)
            #expect(value("vitrine_process_tree_processes", in: scraped).map { $0 >= 2 } == true, "the program and its web process")
            let pss = try #require(value("vitrine_process_tree_proportional_memory_bytes", in: scraped))
            #expect(pss > 20e6 && pss <= value("vitrine_process_tree_resident_memory_bytes", in: scraped) ?? 0)
            // node_exporter serves only families with samples; the file declares them all.
            let file = try String(contentsOfFile: prom + "/vitrine.prom", encoding: .utf8)
            #expect(file.contains("# HELP vitrine_load_failures_total ") && file.contains("# TYPE vitrine_load_failures_total counter\n"))
            #expect(!scraped.contains("refused.invalid") && !scraped.contains("127.0.0.1:\(server.port)"), "no URL is a label")

            // A clean exit writes vitrine_up 0, so a stopped kiosk is not taken for a stale one.
            kiosk.end()
            #expect(kiosk.process.terminationReason == .exit && kiosk.process.terminationStatus == 0)
            let ended = try #require(scrape(port: port, folder: prom, within: 10) { value("vitrine_up", in: $0) == 0 }, "vitrine_up 0 never scraped")
            #expect(value("node_textfile_scrape_error", in: ended) == 0)
            #expect(try FileManager.default.contentsOfDirectory(atPath: prom) == ["vitrine.prom"], "no temporary file left behind")
        }

        /// A textfile folder that does not exist: one clear line on standard error, and the
        /// kiosk still shows its page (`--exit-after-load` exits 0 once it has).
        @Test func aMissingFolderIsLoggedAndTheKioskStaysUp() throws {
            let server = try LoopbackHTTPServer(pages: ["index.html": "<!doctype html><title>up</title>up"])
            defer { server.stop() }
            let folder = try ConfigFolder()
            let config = try kioskConfig(in: folder, server: server, metrics: "textfile = \"missing/vitrine.prom\"")
            let run = try runProcess(try BuiltProducts.path("vitrine"), ["--config", config, "--exit-after-load"], timeout: 90)
            #expect(run.status == 0, "stderr: \(run.stderr)")
            let missing = folder.path + "/missing/vitrine.prom"
            let lines = run.stderr.split(separator: "\n").filter { $0.contains("metrics: cannot write \(missing)") }
            #expect(lines.count == 1, "stderr: \(run.stderr)")
            #expect(lines.first?.contains("No such file or directory") == true)
        }

        // MARK: Helpers

        /// A windowed kiosk on `server`'s index.html with `metrics` as its [metrics] table.
        private func kioskConfig(in folder: borrowing ConfigFolder, server: LoopbackHTTPServer, metrics: String) throws -> String {
            try folder.write("kiosk.toml", """
                preset = "kiosk"
                start-url = "\(server.url("index.html").absoluteString)"
                [window]
                fullscreen = false
                [metrics]
                \(metrics)
                """)
        }

        private func start(_ program: String, _ arguments: [String]) throws -> Process {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: program)
            process.arguments = arguments
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            return process
        }

        private func stop(_ process: Process) {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }

        /// Scrapes node_exporter (serving the textfiles of `folder`) until `done` holds for
        /// what it serves, again at each change of the folder's files; nil after `seconds`.
        private func scrape(port: Int, folder: String, within seconds: TimeInterval, until done: (String) -> Bool) -> String? {
            var scraped: String?
            FactWait(watching: [folder + "/vitrine.prom"]).wait(timeout: seconds) {
                scraped = httpGet(port: port, path: "/metrics")
                return scraped.map(done) ?? false
            }
            return scraped.flatMap { done($0) ? $0 : nil }
        }

        /// The value of the sample `series` (name and labels exactly as node_exporter writes them).
        private func value(_ series: String, in text: String) -> Double? {
            for line in text.split(separator: "\n") where line.hasPrefix(series + " ") {
                return Double(line.dropFirst(series.count + 1))
            }
            return nil
        }

        /// A plain HTTP/1.0 GET on loopback (no client library needed): the body, or nil.
        private func httpGet(port: Int, path: String) -> String? {
            guard let fd = LoopbackHTTPServer.connectedSocket(port: port) else { return nil }
            defer { close(fd) }
            let request = "GET \(path) HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n"
            guard request.withCString({ send(fd, $0, strlen($0), 0) }) > 0 else { return nil }
            var response: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                guard count > 0 else { break }
                response += buffer[..<count]
            }
            let text = String(decoding: response, as: UTF8.self)
            guard text.hasPrefix("HTTP/1.") && text.contains(" 200 "), let body = text.range(of: "\r\n\r\n") else { return nil }
            return String(text[body.upperBound...])
        }
    }
}
