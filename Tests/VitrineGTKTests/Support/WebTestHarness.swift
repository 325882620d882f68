import CWebKitGTK
import Foundation
import MainQueueOnMainThread
import Testing
import Vitrine
import VitrineGTK
import VitrineTestSupport

/// Keeps GLib's loop turning inside the test process, on the main actor.
///
/// The main actor runs on the process's main thread here (Tests/MainQueueOnMainThread),
/// as GTK and WebKit require. Swift Testing runs `@MainActor` tests inside main-queue jobs,
/// where libdispatch will not drain the main queue re-entrantly, so `gtk_main()` cannot be
/// used here (the `vitrine` program uses it; ProgramTests checks that path in a
/// subprocess). Instead one task alternates GLib iterations with short sleeps for the
/// whole run.
@MainActor
enum TestLoop {
    private static var started = false

    static func start() {
        guard !started else { return }
        started = true
        precondition(Thread.isMainThread && vitrine_tests_main_queue_runs_on_main_thread() != 0,
                     "window tests need the main actor on the main thread (Tests/MainQueueOnMainThread)")
        BuiltProducts.keepAppDataInThisRun()
        GTKRuntime.initialize()
        Task { @MainActor in
            while true {
                var dispatched = 0
                while g_main_context_iteration(nil, 0) != 0 && dispatched < 200 { dispatched += 1 }
                try? await Task.sleep(for: .milliseconds(dispatched > 0 ? 0 : 2))
            }
        }
    }

    /// Waits until `condition` holds; false after `timeout`.
    static func wait(timeout: Duration = .seconds(20), until condition: () -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while !condition() {
            if ContinuousClock.now >= deadline { return false }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return true
    }
}

/// A container on test pages served from a temporary app directory (`app://test/…`),
/// recording every event (see `ContainerFixture`).
@MainActor
final class WebTestHarness {
    static let host = "test"
    let directory: URL
    let fixture: ContainerFixture
    var container: WebContainer { fixture.container }
    var events: MemoryEventLog { fixture.log }

    init(pages: [String: String], configure: (Configurator) -> Configurator = { $0 }) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("vitrine-test-\(UUID().uuidString)")
        for (path, content) in pages {
            let file = directory.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try content.write(to: file, atomically: true, encoding: .utf8)
        }
        fixture = try ContainerFixture(configure(
            ConfiguratorFactory.make(for: .default)
                .appDirectory(directory, host: Self.host)
                .windowSize(width: 800, height: 600)))
    }

    static func url(_ path: String) -> URL { URL(string: "app://\(host)/\(path)")! }

    /// Shows the window, loads `path` and waits for the load to finish.
    func open(_ path: String) async throws {
        let url = Self.url(path)
        container.start()
        // `start()` loads the start page (the app folder's index.html) itself: loading it
        // again would replace the page under the test's next script ("Unsupported result
        // type" from WebKit when the evaluation's page goes away).
        if container.configuration.startURL?.absoluteString != url.absoluteString { container.startLoading(url) }
        try await fixture.nextLoad(of: url)
    }

    /// Waits for a `finished` load event for `url`.
    func waitForLoad(_ url: URL, timeout: Duration = .seconds(20)) async -> Bool {
        await TestLoop.wait(timeout: timeout) { self.loads(of: url).contains(.finished) }
    }

    func loads(of url: URL) -> [ContainerEvent.LoadEvent] {
        events.events.compactMap {
            if case let .load(event, loaded, _) = $0, loaded == url.absoluteString { return event }
            return nil
        }
    }

    /// The navigation decisions recorded for `url`, request phase.
    func decisions(for url: URL) -> [(handler: String, policy: NavigationPolicy)] {
        events.events.compactMap {
            if case let .navigation(decided, handler, policy, _, _, phase) = $0,
               decided == url.absoluteString, phase == .request { return (handler, policy) }
            return nil
        }
    }

    func messages() -> [(name: String, outcome: ContainerEvent.MessageOutcome, error: String?)] {
        events.events.compactMap {
            if case let .message(name, outcome, error, _, _) = $0 { return (name, outcome, error) }
            return nil
        }
    }

    func close() {
        fixture.close()
        try? FileManager.default.removeItem(at: directory)
    }
}

/// A navigation decision as the events log shows it.
struct Decided: Equatable, CustomStringConvertible {
    let handler: String
    let policy: NavigationPolicy
    init(_ handler: String, _ policy: NavigationPolicy) {
        self.handler = handler
        self.policy = policy
    }
    var description: String { "\(handler) → \(policy)" }
}
