import CWebKitGTK
import Foundation
import Testing
import Vitrine
@testable import VitrineGTK
import VitrineTestSupport

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
            writer?.metrics.record(.message(name: "ping", outcome: "resolved", error: nil, origin: nil))
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
