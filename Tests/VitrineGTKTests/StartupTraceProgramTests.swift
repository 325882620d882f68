import Foundation
import Testing
import Vitrine
import VitrineTestSupport

extension WebKitTests {
    /// `--startup-trace` (`[events] startup-trace`): the program logs each phase of its start,
    /// from its first instruction to the first page's load, once each, in order, on the
    /// monotonic clock; a run without it logs none. The libraries only some configurations use
    /// are not among what a start maps.
    @Suite
    struct StartupTraceProgramTests {
        private func startLines(_ arguments: [String]) throws -> [[String: Any]] {
            let folder = try ConfigFolder()
            let page = try folder.write("index.html", "<!doctype html><title>trace</title><p>start</p><script>void 0</script>")
            let log = folder.path + "/events.jsonl"
            let run = try runProcess(try BuiltProducts.path("vitrine"), [page, "--exit-after-load", "--events", log] + arguments, timeout: 90)
            #expect(run.status == 0, "stderr: \(run.stderr)")
            return EventLine.parseAll(try String(contentsOfFile: log, encoding: .utf8))
        }

        @Test func eachPhaseIsALineInTheOrderReached() throws {
            let marks = try startLines(["--startup-trace"]).filter { $0["type"] as? String == "startup" }
            let phases = marks.compactMap { $0["phase"] as? String }
            let times = marks.compactMap { $0["monotonic"] as? Double }
            // Sandboxed by default: the probe is a phase; a one-shot run is never the bus's instance.
            let expected = ["process-start", "options-parsed", "configured", "gtk-initialized", "sandbox-probed", "web-context",
                            "first-view", "load-requested", "window-shown", "load-started", "load-committed", "load-finished"]
            #expect(Set(phases) == Set(expected), "\(phases)")
            #expect(phases.count == Set(phases).count, "a phase twice: \(phases)")
            #expect(times.count == phases.count && times == times.sorted(), "\(marks)")
            let at = { (phase: String) in times[phases.firstIndex(of: phase) ?? 0] }
            #expect(at("process-start") < at("first-view") && at("first-view") < at("load-finished"))
        }

        /// libmosquitto and libarchive (and, through them, OpenSSL, nettle and libacl) are
        /// opened on first use: a program that loaded its page without MQTT or a bundle has
        /// none of them mapped. MQTTProgramTests and BundleItemTests use them once opened.
        @Test func librariesOnlySomeConfigurationsUseAreNotMapped() throws {
            let folder = try ConfigFolder()
            let page = try folder.write("index.html", "<!doctype html><title>lazy</title><p>start</p>")
            let run = try ProgramRun([page, "--events", folder.path + "/events.jsonl"])
            defer { run.end() }
            #expect(run.wait { run.events.contains { $0["type"] as? String == "load" && $0["event"] as? String == "finished" } })
            // Read to its end (a /proc file says its size is 0, which Foundation believes).
            let maps = try #require(FileSystem.contents(of: "/proc/\(run.process.processIdentifier)/maps"))
            #expect(maps.contains("libwebkit2gtk-4.1.so"), "the maps are the program's")
            for library in ["libmosquitto.so", "libarchive.so", "libcrypto.so", "libssl.so"] {
                #expect(!maps.contains(library), "\(library) is mapped before anything used it")
            }
        }

        @Test func withoutTheFlagThereIsNoTrace() throws {
            let lines = try startLines([])
            #expect(lines.contains { $0["type"] as? String == "load" }, "the page loaded")
            #expect(!lines.contains { $0["type"] as? String == "startup" })
        }
    }
}
