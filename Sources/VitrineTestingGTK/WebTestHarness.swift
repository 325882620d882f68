import Foundation
import Testing
import Vitrine
import VitrineGTK

/// A container on test pages served from a temporary app directory (`app://test/…`),
/// recording every event (see `ContainerFixture`).
@MainActor
public final class WebTestHarness {
    public static let host = "test"
    public let directory: URL
    public let fixture: ContainerFixture
    public var container: WebContainer { fixture.container }
    public var events: MemoryEventLog { fixture.log }

    public init(pages: [String: String], configure: (Configurator) -> Configurator = { $0 }) throws {
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

    public static func url(_ path: String) -> URL { URL(string: "app://\(host)/\(path)")! }

    /// Shows the window, loads `path` and waits for the load to finish.
    public func open(_ path: String) async throws {
        let url = Self.url(path)
        container.start()
        // `start()` loads the start page (the app folder's index.html) itself: loading it
        // again would replace the page under the test's next script ("Unsupported result
        // type" from WebKit when the evaluation's page goes away).
        if container.configuration.startURL?.absoluteString != url.absoluteString { container.startLoading(url) }
        try await fixture.nextLoad(of: url)
    }

    /// Waits for a `finished` load event for `url`.
    public func waitForLoad(_ url: URL, timeout: Duration = .seconds(20)) async -> Bool {
        await TestLoop.wait(timeout: timeout) { self.loads(of: url).contains(.finished) }
    }

    public func loads(of url: URL) -> [ContainerEvent.LoadEvent] {
        events.events.compactMap {
            if case let .load(event, loaded, _, _, _) = $0, loaded == url.absoluteString { return event }
            return nil
        }
    }

    /// The navigation decisions recorded for `url`, request phase.
    public func decisions(for url: URL) -> [(handler: String, policy: NavigationPolicy)] {
        events.events.compactMap {
            if case let .navigation(decided, handler, policy, _, _, phase) = $0,
               decided == url.absoluteString, phase == .request { return (handler, policy) }
            return nil
        }
    }

    public func messages() -> [(name: String, outcome: ContainerEvent.MessageOutcome, error: String?)] {
        events.events.compactMap {
            if case let .message(name, outcome, error, _, _) = $0 { return (name, outcome, error) }
            return nil
        }
    }

    public func close() {
        fixture.close()
        try? FileManager.default.removeItem(at: directory)
    }
}
