import Foundation
import Testing
import Vitrine
@testable import VitrineGTK
import VitrineTestingGTK

extension WebKitTests {
    /// Crash and error reports from a real page: its uncaught exception and unhandled
    /// rejection reach the app's reports file once each, a flood is capped, a foreign or
    /// sandboxed frame reports nothing, and a secret in the page's URL is redacted.
    @Suite @MainActor
    struct ReportWindowTests {
        @Test func aPagesErrorsAreReportedCappedAndOnlyFromItsOwnFrames() async throws {
            let secret = "planted-\(UUID().uuidString.prefix(8))"
            let server = try PrincipalWindowTests.server([
                "top.html": """
                    <!doctype html><title>top</title><body>
                    <script src="app.js"></script>
                    <iframe src="http://localhost:PORT/frame.html?foreign"></iframe>
                    <iframe sandbox="allow-scripts" src="frame.html?sandboxed"></iframe>
                    </body>
                    """,
                "app.js": "Promise.reject(new Error('nobody caught me at ' + location.href));\nundefinedFunction();\n",
                "frame.html": "<!doctype html><script>throw new Error('frame boom ' + location.search);</script>",
            ])
            defer { server.stop() }
            let top = URL(string: server.url("top.html").absoluteString + "?access_token=\(secret)")!
            let appID = "org.vitrine.reports.t\(UInt32.random(in: 0...UInt32.max))"
            let fixture = try ContainerFixture(ConfiguratorFactory.make(for: .default).startURL(top).appID(appID))
            defer { fixture.close() }
            let log = ReportLog(appDataFolder: fixture.container.configuration.appDataDirectory)
            defer { try? FileManager.default.removeItem(at: log.folder) }
            try await fixture.start()  // (its load events name the URL redacted)

            #expect(await TestLoop.wait { log.reports().count == 2 }, "\(log.reports())")
            let first = log.reports()
            let error = try #require(first.first { $0.kind == .pageError })
            #expect(error.message.contains("Can't find variable: undefinedFunction"), "\(error.message)")
            #expect(error.source?.hasSuffix("/app.js") == true && error.line == 2, "\(error)")
            let rejection = try #require(first.first { $0.kind == .unhandledRejection })
            #expect(rejection.message.hasPrefix("nobody caught me at http") && rejection.line == 1, "\(rejection)")
            #expect(rejection.message.contains("access_token=<redacted>"), "\(rejection.message)")
            #expect(rejection.url?.contains("access_token=<redacted>") == true, "\(rejection.url ?? "")")

            // The foreign and the sandboxed frame threw too: the bridge refused their reports.
            func refusedReports() -> Int {
                fixture.log.events.filter { if case .message("page-error", .rejected, _, _, _) = $0 { true } else { false } }.count
            }
            #expect(await TestLoop.wait { refusedReports() == 2 }, "\(fixture.log.events)")

            // A flood: 1000 distinct errors posted straight to the strategy, then 1000 thrown.
            let admitted = try await fixture.container.evaluateAsync("""
                let admitted = 0;
                for (let i = 0; i < 1000; i++) {
                  if (await vitrine.invoke('page-error', {kind: 'error', message: 'posted ' + i, source: 'x.js', line: i, column: 0})) admitted++;
                }
                for (let i = 0; i < 1000; i++) setTimeout(() => { throw new Error('thrown ' + i); }, 0);
                await new Promise((resolve) => setTimeout(resolve, 50));
                await vitrine.invoke('ping', 'after the flood');
                return admitted;
                """)
            #expect(admitted == .number(Double(PageErrorFilter.perDocument - 2)), "the document's cap: \(admitted)")
            let all = log.reports()
            #expect(all.count == PageErrorFilter.perDocument, "\(all.map(\.message))")
            #expect(!all.contains { $0.message.contains("frame boom") })
            let file = try String(contentsOf: log.file, encoding: .utf8)
            #expect(!file.contains(secret), "the planted secret is redacted everywhere")
        }
    }
}
