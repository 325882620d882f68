import Foundation
import Testing
import Vitrine
@testable import VitrineGTK
import VitrineTestingGTK

extension WebKitTests {
    /// `vitrine dev`'s live reload on a real page: GLib's file monitors on the app folder
    /// and its subfolders, a burst of writes as one reload, reads as none.
    @Suite @MainActor
    struct DevReloadWindowTests {
        @Test func writesReloadOnceAndReadsDoNot() async throws {
            let page = "<!doctype html><html><head><title>dev</title></head><body>dev</body></html>"
            let harness = try WebTestHarness(pages: ["index.html": page, "sub/data.txt": "one"])
            defer { harness.close() }
            try await harness.open("index.html")
            let reloader = DevReloader(container: harness.container, folder: harness.directory, quietPeriod: .milliseconds(100))
            #expect(reloader.folders.count == 2, "the folder and its subfolder: \(reloader.folders)")
            func reloads() -> [String] {
                harness.events.events.compactMap {
                    if case let .native(.devReload, detail) = $0 { return detail }
                    return nil
                }
            }
            // A burst: three writes to two files, one in the subfolder.
            let data = harness.directory.appendingPathComponent("sub/data.txt")
            let index = harness.directory.appendingPathComponent("index.html")
            try "two".write(to: data, atomically: false, encoding: .utf8)
            try (page + "<!-- edited -->").write(to: index, atomically: false, encoding: .utf8)
            try "three".write(to: data, atomically: false, encoding: .utf8)
            #expect(await TestLoop.wait { reloads().count == 1 })
            // Reads, then a write to a third file: the next reload names only that file.
            _ = try String(contentsOf: data, encoding: .utf8)
            _ = try String(contentsOf: index, encoding: .utf8)
            let marker = harness.directory.appendingPathComponent("marker.txt")
            try "m".write(to: marker, atomically: false, encoding: .utf8)
            #expect(await TestLoop.wait { reloads().count == 2 })
            #expect(reloads().last == marker.standardizedFileURL.path, "\(reloads())")
            func reloadNavigations() -> Int {
                harness.events.events.filter {
                    if case .navigation(_, _, _, .reload, _, .request) = $0 { return true }
                    return false
                }.count
            }
            #expect(await TestLoop.wait { reloadNavigations() == 2 }, "the page reloads once per burst")
            #expect(reloads().count == 2, "\(reloads())")
            withExtendedLifetime(reloader) {}
        }

        /// The page's errors reach `dev-console` with their file and line (Resources/sdk/dev-console.js).
        @Test func pageErrorsReachTheTerminalWithFileAndLine() async throws {
            let script = try String(contentsOf: ResourceLocator().sdkDirectory.appendingPathComponent("dev-console.js"), encoding: .utf8)
            let lines = LineCollector()
            let harness = try WebTestHarness(pages: [
                "index.html": #"<!doctype html><html><head><title>errors</title><script src="app.js"></script></head><body>x</body></html>"#,
                "app.js": "console.error('bad thing', 42);\nPromise.reject(new Error('nobody caught me'));\nundefinedFunction();\n",
            ], configure: {
                $0.strategy(DevConsoleStrategy { lines.lines.append($0) })
                    .userScript(UserScript(source: script, injectionTime: .documentStart, frames: .allFrames))
            })
            defer { harness.close() }
            try await harness.open("index.html")
            #expect(await TestLoop.wait { lines.lines.count == 3 }, "\(lines.lines)")
            #expect(Set(lines.lines) == [
                "app://test/app.js:1:14: console.error: bad thing 42",
                "app://test/app.js:2:25: unhandledrejection: nobody caught me",
                "app://test/app.js:3:18: error: ReferenceError: Can't find variable: undefinedFunction",
            ])
        }
    }
}

/// What the dev-console strategy printed.
@MainActor
final class LineCollector {
    var lines: [String] = []
}
