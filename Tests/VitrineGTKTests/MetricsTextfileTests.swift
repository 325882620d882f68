import CWebKitGTK
import Foundation
import Testing
import Vitrine
@testable import VitrineGTK
import VitrineTestSupport
import VitrineTestingGTK

extension WebKitTests {
    /// The metrics file's writer owns its GLib timeout: it rewrites the file atomically on
    /// GLib's loop, and its timeout goes with it.
    @Suite
    @MainActor
    struct MetricsTextfileTests {
        @Test func itRewritesTheFileOnItsTimeoutAndTheTimeoutGoesWithIt() async throws {
            TestLoop.start()
            let folder = try ConfigFolder()
            let path = folder.path + "/vitrine.prom"
            var writer: MetricsTextfile? = MetricsTextfile(path: path, interval: .milliseconds(20))
            writer?.metrics.record(.message(name: "ping", outcome: .resolved, error: nil, origin: nil))
            writer?.start()
            let timer = try #require(writer?.timer)
            #expect(timer != 0 && g_main_context_find_source_by_id(nil, timer) != nil)
            // Each atomic write leaves a new inode: three of them are the timeout firing.
            var inodes: Set<UInt64> = []
            #expect(await TestLoop.wait(timeout: .seconds(20)) {
                if let inode = (try? FileManager.default.attributesOfItem(atPath: path))?[.systemFileNumber] as? UInt64 { inodes.insert(inode) }
                return inodes.count >= 3
            }, "the file was not rewritten")
            let text = try String(contentsOfFile: path, encoding: .utf8)
            #expect(text.contains("vitrine_up 1\n") && text.contains(#"vitrine_script_messages_total{outcome="resolved"} 1"#))
            #expect(text.contains("vitrine_process_tree_processes "), "this process's memory, sampled off the main thread")

            writer = nil
            #expect(g_main_context_find_source_by_id(nil, timer) == nil, "the timeout was removed with its owner")
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["vitrine.prom"], "no temporary file left")
        }

        @Test func finishWritesUpZeroAndStopsTheTimeout() throws {
            let folder = try ConfigFolder()
            let path = folder.path + "/vitrine.prom"
            let writer = MetricsTextfile(path: path, interval: .seconds(15))
            writer.start()
            let timer = writer.timer
            writer.finish()
            #expect(writer.timer == 0 && g_main_context_find_source_by_id(nil, timer) == nil)
            #expect(try String(contentsOfFile: path, encoding: .utf8).contains("vitrine_up 0\n"))
            #expect(writer.lastError == nil)

            let unwritable = MetricsTextfile(path: folder.path + "/missing/vitrine.prom", interval: .seconds(15))
            unwritable.finish()
            #expect(unwritable.lastError?.contains("No such file or directory") == true, "\(unwritable.lastError ?? "no error")")
        }
    }
}

extension WebKitTests {
    /// `ContainerMetrics` against a real WebKit view's events: a kiosk whose app server
    /// answers 503 shows the error page (a failure, not a load), then the page itself.
    @Suite
    @MainActor
    struct ContainerMetricsWindowTests {
        @Test func theErrorPageIsAFailureAndTheRecoveredPageALoad() async throws {
            let server = try LoopbackHTTPServer(pages: ["index.html": "<!doctype html><title>real</title>", "MAINTENANCE": ""])
            defer { server.stop() }
            let url = server.url("maintenance/index.html")
            let fixture = try ContainerFixture(ConfiguratorFactory.make(for: .kiosk).startURL(url).fullscreen(false))
            defer { fixture.close() }
            let metrics = ContainerMetrics()
            fixture.container.addEventSink(metrics)
            func value(_ name: String, _ labels: [MetricFamily.Label] = []) -> Double? {
                metrics.families(memory: nil).first { $0.name == name }?.samples.first { $0.labels == labels }?.value
            }
            fixture.container.start()
            let page = url.absoluteString
            try await fixture.next(where: { $0 == .native(action: .errorPage, detail: "network \(page)") })
            // The error page's own load (the refused response never committed).
            try await fixture.next(where: { $0 == .load(event: .committed, url: page, error: nil, shown: .errorPage) })
            try await fixture.nextLoad(of: url)
            #expect(value("vitrine_load_failures_total", [.init("kind", "http-503")]) == 1)
            #expect(value("vitrine_error_pages_total") == 1)
            #expect(value("vitrine_loads_started_total") == 1)
            #expect(value("vitrine_loads_finished_total") == 0, "the error page is not the page")
            #expect(value("vitrine_last_successful_load_timestamp_seconds") == 0)

            try FileManager.default.removeItem(at: server.directory.appendingPathComponent("MAINTENANCE"))
            try await fixture.next(where: { $0 == .native(action: .recovered, detail: page) }, timeout: .seconds(30))
            #expect(value("vitrine_loads_finished_total") == 1)
            #expect(value("vitrine_load_recoveries_total") == 1)
            // A retry may have come before the file was gone: each failed attempt had its error page.
            let failures = try #require(value("vitrine_load_failures_total", [.init("kind", "http-503")]))
            #expect(value("vitrine_error_pages_total") == failures)
            #expect(value("vitrine_loads_started_total") == failures + 1, "every attempt, and none of the error pages")
            #expect(value("vitrine_last_successful_load_timestamp_seconds").map { abs($0 - Date().timeIntervalSince1970) < 60 } == true)
        }
    }
}
