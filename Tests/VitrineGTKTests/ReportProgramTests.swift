import Foundation
import Glibc
import Testing
import Vitrine
import VitrineTestSupport

extension WebKitTests {
    /// Crash and error reports through the built program: a page's error and Vitrine's own
    /// fatal signal (SIGSEGV) listed by `vitrine ctl reports`, then POSTed at the next
    /// starts to a real loopback server — kept unsent while it answers 500, marked sent
    /// once it answers 201. A secret planted in the page's URL appears in no report, no
    /// listing and no upload.
    @Suite
    struct ReportProgramTests {
        @Test func reportsAreListedAndSentOnlyWhenTheServerTakesThem() throws {
            let secret = "planted-\(UUID().uuidString.prefix(8).lowercased())"
            let server = try LoopbackHTTPServer(pages: ["start.html": """
                <!doctype html><title>reports</title><body><script>
                if (location.search) throw new Error('failed at ' + location.href);
                </script>
                """])
            defer { server.stop() }
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vitrine-reports-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let appID = "org.example.Reports"
            let environment = ProgramRun.environment(dataHome: folder + "/data")
            let vitrine = try BuiltProducts.path("vitrine")
            func run(_ name: String, start: URL, upload: URL? = nil) throws -> ProgramRun {
                let config = folder + "/\(name).toml"
                try """
                    app-id = "\(appID)"
                    start-url = "\(start.absoluteString)"
                    \(upload.map { "[reports]\nupload = \"\($0.absoluteString)\"" } ?? "")
                    """.write(toFile: config, atomically: true, encoding: .utf8)
                return try ProgramRun(["--config", config, "--new-instance", "--no-fullscreen", "--events", folder + "/\(name).jsonl"],
                                      environment: environment)
            }
            func listing() throws -> [[String: Any]] {
                let listed = try runProcess(vitrine, ["ctl", "--app-id", appID, "reports"], timeout: 20, environment: environment)
                #expect(listed.status == 0, "\(listed.stderr)")
                #expect(!listed.stdout.contains(secret), "the planted secret: \(listed.stdout)")
                return listed.stdout.split(separator: "\n").compactMap {
                    try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
                }
            }

            // A page error, then a fatal signal.
            let first = try run("first", start: URL(string: server.url("start.html").absoluteString + "?access_token=\(secret)")!)
            defer { first.kill() }
            #expect(first.waitForEvent { $0["event"] as? String == "finished" } != nil, "\(first.standardError)")
            let reportsFile = folder + "/data/\(appID)/reports/reports.jsonl"
            #expect(FactWait(watching: [reportsFile]).wait(timeout: 20) { FileSystem.size(reportsFile).map { $0 > 0 } == true },
                    "the page's error reached the file")
            kill(first.process.processIdentifier, SIGSEGV)
            try #require(first.waitForExit(), "the program died of the signal")
            #expect(first.process.terminationReason == .uncaughtSignal && first.process.terminationStatus == SIGSEGV,
                    "re-raised: \(first.process.terminationReason) \(first.process.terminationStatus)")
            let listed = try listing()
            #expect(listed.map { $0["kind"] as? String } == ["page-error", "fatal-signal"], "\(listed)")
            #expect((listed.first?["message"] as? String)?.contains("access_token=<redacted>") == true, "\(listed)")
            #expect((listed.last?["message"] as? String) == "Vitrine died of SIGSEGV (signal 11)")
            #expect(listed.allSatisfy { $0["sent"] as? Bool == false })

            // A server that fails: nothing is marked sent.
            let plain = server.url("start.html")
            let failing = try run("failing", start: plain, upload: server.url("status/500/reports"))
            defer { failing.kill() }
            let failed = failing.waitForEvent { $0["action"] as? String == "reports-upload-failed" }
            #expect((failed?["detail"] as? String)?.contains("HTTP 500") == true, "\(String(describing: failed))")
            #expect(failing.end())
            #expect(try listing().allSatisfy { $0["sent"] as? Bool == false })

            // A server that takes them: sent, marked so, and not sent again.
            let taking = try run("taking", start: plain, upload: server.url("upload/reports.json"))
            defer { taking.kill() }
            #expect(taking.waitForEvent { $0["action"] as? String == "reports-sent" } != nil, "\(taking.standardError)")
            #expect(taking.end())
            let uploads = try String(contentsOf: server.directory.appendingPathComponent("uploads/reports.json"), encoding: .utf8)
            #expect(!uploads.contains(secret))
            let bodies = uploads.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            #expect(bodies.count == 1 && bodies.first?["app"] as? String == appID, "\(uploads)")
            let sent = (bodies.first?["reports"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
            let after = try listing()
            #expect(sent.count == 2 && Set(sent) == Set(after.compactMap { $0["id"] as? String }), "\(sent) \(after)")
            #expect(after.allSatisfy { $0["sent"] as? Bool == true })
            #expect(server.requestedPaths.filter { $0.hasPrefix("POST ") } == ["POST /status/500/reports", "POST /upload/reports.json"])
        }
    }
}
