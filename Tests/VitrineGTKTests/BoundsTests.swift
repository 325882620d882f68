import CWebKitGTK
import Foundation
import Testing
@testable import Vitrine
@testable import VitrineGTK
import VitrineTestingGTK

extension WebKitTests {
    /// Pages that push at the bounds: a page granted `window` looping `window.open`, a page
    /// granted nothing flooding a refused call into the events log, a page fetching an
    /// app:// file another process keeps swapping for a symlink out of the app folder.
    @Suite @MainActor
    struct BoundsTests {
        static let page = "<!doctype html><title>bounds</title><p>bounds</p>"

        @Test func aPageLoopingWindowOpenGetsAtMostMaxWindows() async throws {
            let app = Origin(string: "app://\(WebTestHarness.host)")!
            let harness = try WebTestHarness(pages: ["index.html": Self.page, "second.html": Self.page], configure: {
                $0.grantCapabilities([.window], to: app).preference(\.maxWindows, 3)
            })
            defer { harness.close() }
            try await harness.open("index.html")
            let results = try await harness.container.evaluateAsync("""
                const out = [];
                for (let i = 0; i < 40; i++) {
                  try { out.push((await vitrine.window.open('second.html')).id); } catch (e) { out.push(e.message); }
                }
                return out;
                """)
            guard case .array(let answers) = results else { Issue.record("\(results)"); return }
            #expect(answers.prefix(2) == [2, 3], "two more windows: three in all")
            #expect(answers.dropFirst(2).allSatisfy {
                $0 == "window: open: the app has 3 windows open, the most [capabilities] max-windows allows (3); close one first"
            }, "\(answers)")
            #expect(harness.container.windows.windows.count == 3)
            // The app stays up and answers; a window closed makes room for one more.
            let secondWindow = try #require(harness.container.windows.windows.last)
            secondWindow.close()
            #expect(await TestLoop.wait { harness.container.windows.windows.count == 2 })
            let again = try await harness.container.evaluateAsync("return (await vitrine.window.open('second.html')).id;")
            #expect(again == 4)
            for window in harness.container.windows.windows.dropFirst() { window.close() }
        }

        /// A page granted nothing calls `storage` 20,000 times: the events file keeps the
        /// burst and one line counting the rest; the metrics-style memory sink sees all.
        @Test func aFloodOfRefusedCallsKeepsTheEventsLogSmall() async throws {
            let harness = try WebTestHarness(pages: ["index.html": Self.page])
            defer { harness.close() }
            let path = harness.directory.deletingLastPathComponent().appendingPathComponent("events-\(UUID().uuidString).log").path
            defer { try? FileManager.default.removeItem(atPath: path) }
            let limits = EventRateLimiter.Limits(reportInterval: .seconds(1))
            let log = try JSONLinesEventLog(path: path, rateLimits: limits)
            harness.container.addEventSink(log)
            try await harness.open("index.html")
            let refused = try await harness.container.evaluateAsync("""
                const calls = [];
                for (let i = 0; i < 20000; i++) calls.push(vitrine.storage.set('k' + i, i).then(() => 'stored', (e) => 'refused'));
                return (await Promise.all(calls)).filter((r) => r === 'refused').length;
                """)
            #expect(refused == 20000)
            let rejected = harness.messages().filter { $0.name == "storage" && $0.outcome == .rejected }
            #expect(rejected.count == 20000, "every call still reaches the other sinks")
            // Each line is written or counted in a report: a slow machine's burst may span
            // several report intervals, so the reports are summed once they cover it all.
            var reports: [JSONValue] = []
            var dropped = 0.0
            #expect(await TestLoop.wait {
                let lines = ((try? String(contentsOfFile: path, encoding: .utf8))?.split(separator: "\n") ?? [])
                    .compactMap { try? JSONValue(parsing: String($0)) }
                reports = lines.filter { $0["type"] == "dropped" }
                dropped = reports.compactMap { $0["kinds"]?["message storage rejected"]?.numberValue }.reduce(0, +)
                let written = lines.count { $0["type"] == "message" && $0["name"] == "storage" }
                return Double(written) + dropped >= 20000
            })
            #expect(dropped > 15000, "\(reports)")
            let size = FileSystem.size(path) ?? 0
            #expect(size < 200_000, "the log stayed small: \(size) bytes")
        }

        /// A writer keeps swapping an app file between a regular file and a symlink to a secret
        /// outside the app folder while the page fetches it 3,000 times: never the secret.
        @Test func aFileSwappedForASymlinkNeverServesTheSecret() async throws {
            let harness = try WebTestHarness(pages: ["index.html": Self.page, "swapped.txt": "public"])
            defer { harness.close() }
            let secret = harness.directory.deletingLastPathComponent().appendingPathComponent("secret-\(UUID().uuidString).txt")
            try Data("SECRET".utf8).write(to: secret)
            defer { try? FileManager.default.removeItem(at: secret) }
            try await harness.open("index.html")
            let swapped = harness.directory.appendingPathComponent("swapped.txt").path
            let swapper = Swapper(path: swapped, secret: secret.path)
            swapper.start()
            let seen = try await harness.container.evaluateAsync("""
                const seen = {};
                for (let i = 0; i < 3000; i++) {
                  let text;
                  try { const r = await fetch('swapped.txt?' + i); text = r.status + ' ' + await r.text(); } catch (e) { text = 'error'; }
                  seen[text] = (seen[text] || 0) + 1;
                }
                return seen;
                """)
            swapper.stop()
            guard case .object(let counts) = seen else { Issue.record("\(seen)"); return }
            #expect(!counts.keys.contains { $0.contains("SECRET") }, "\(seen)")
            #expect(counts["200 public"] != nil && counts["403 Forbidden"] != nil, "both states were met: \(seen)")
        }
    }
}

/// Swaps a file for a symlink to `secret` and back, as fast as it can, on its own thread.
final class Swapper: @unchecked Sendable {
    private let path: String, secret: String
    private let lock = NSLock()
    private var stopping = false
    private let done = DispatchSemaphore(value: 0)

    init(path: String, secret: String) {
        self.path = path
        self.secret = secret
    }

    func start() {
        Thread { [self] in
            let file = path + ".file", link = path + ".link"
            while !lock.withLock({ stopping }) {
                _ = FileManager.default.createFile(atPath: file, contents: Data("public".utf8))
                rename(file, path)
                symlink(secret, link)
                rename(link, path)
            }
            done.signal()
        }.start()
    }

    func stop() {
        lock.withLock { stopping = true }
        done.wait()
    }
}
