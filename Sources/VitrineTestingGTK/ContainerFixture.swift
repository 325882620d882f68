import Foundation
import Testing
import Vitrine
import VitrineGTK

/// A container under test: built from a configurator, recording every event, started, and
/// waited on by facts (events), never by time.
///
/// Events reach two places: `log` keeps them all for questions about the past, and `events`
/// (the log's stream, made before the container exists) streams them in order for waiting.
/// `next(where:)` takes events from the stream, so an event that came before the call is
/// still seen by it (nothing is missed between a trigger and its wait); the events it
/// passes over are gone from the stream (not from the log).
@MainActor
public final class ContainerFixture {
    public let container: WebContainer
    public let log = MemoryEventLog()
    /// Every event, in order; `next(where:)` reads it.
    public let events: AsyncStream<ContainerEvent>

    public init(_ configurator: Configurator) throws {
        TestLoop.start()
        events = log.stream()
        container = WebContainer(configuration: try configurator.build())
        container.addEventSink(log)
        container.externalOpener = { _ in } // no desktop browser under Xvfb
    }

    /// A windowed kiosk on `url`, shown without waiting (its first load may fail), and its log.
    public static func kiosk(on url: URL, _ refine: (Configurator) -> Configurator = { $0 }) throws -> (WebContainer, MemoryEventLog) {
        let fixture = try ContainerFixture(refine(ConfiguratorFactory.make(for: .kiosk).startURL(url).fullscreen(false)))
        fixture.container.start()
        return (fixture.container, fixture.log)
    }

    /// Shows the window and waits until its first load finishes (of `url` when given).
    public func start(waitingFor url: URL? = nil, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        container.start()
        try await nextLoad(of: url, sourceLocation: sourceLocation)
    }

    /// The next event that `matches`, waiting for it; fails the test (throws) when none
    /// has come after `timeout`.
    @discardableResult
    public func next(
        where matches: @escaping @Sendable (ContainerEvent) -> Bool, timeout: Duration = .seconds(20),
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> ContainerEvent {
        let events = events
        let found = await withTaskGroup(of: ContainerEvent?.self) { group in
            group.addTask {
                for await event in events where matches(event) { return event }
                return nil
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        return try #require(found, "no matching event after \(timeout)", sourceLocation: sourceLocation)
    }

    /// Waits for the next finished load (of `url` when given).
    public func nextLoad(of url: URL? = nil, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let wanted = url?.absoluteString
        try await next(where: {
            if case let .load(.finished, loaded, _, _, _) = $0 { return wanted == nil || loaded == wanted }
            return false
        }, sourceLocation: sourceLocation)
    }

    /// A round trip through the page that also lets the page's own queued tasks run: what
    /// the web process was asked to do before it has been done when this returns.
    public func roundTrip(sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let answer = try await container.evaluateAsync("await new Promise((r) => setTimeout(r, 0)); return 'settled';")
        #expect(answer == "settled", sourceLocation: sourceLocation)
    }

    public func close() {
        container.close()
    }
}
