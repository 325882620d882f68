#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// Keeps events in memory, for tests and for embedding programs that inspect them, and
/// streams each one as it comes to whoever awaits it (`stream()`).
@MainActor
public final class MemoryEventLog: EventSink {
    public private(set) var events: [ContainerEvent] = []
    private var listeners: [UInt64: AsyncStream<ContainerEvent>.Continuation] = [:]
    private var lastListener: UInt64 = 0

    public init() {}

    public func record(_ event: ContainerEvent) {
        events.append(event)
        for listener in listeners.values { listener.yield(event) }
    }

    /// Every event recorded from now on, in order (`events` has the ones before). Each call
    /// makes its own stream, unbounded so no event is lost between a trigger and its
    /// `await`; the stream ends when the log goes away, and stops costing anything once
    /// its reader stops iterating.
    public func stream() -> AsyncStream<ContainerEvent> {
        let (stream, continuation) = AsyncStream<ContainerEvent>.makeStream()
        lastListener += 1
        let id = lastListener
        listeners[id] = continuation
        continuation.onTermination = { [weak self] _ in
            Task { @MainActor in self?.listeners[id] = nil }
        }
        return stream
    }

    isolated deinit {
        for listener in listeners.values { listener.finish() }
    }
}
