/// A container's event sinks, each told every event.
///
/// Until the container starts, events are kept (at most `startupLimit`) and told to each
/// sink added later: what happens while a container is built (trusting a certificate, say)
/// reaches a log added just after.
@MainActor
public struct EventSinks {
    public static let startupLimit = 256
    private var sinks: [any EventSink] = []
    /// Nil once started, or once more than `startupLimit` events came before a start.
    private var startupEvents: [ContainerEvent]? = []

    public init() {}

    /// Adds `sink`, telling it the start-up events first.
    public mutating func add(_ sink: any EventSink) {
        sinks.append(sink)
        for event in startupEvents ?? [] { sink.record(event) }
    }

    /// Tells every sink `event`, redacted (`ContainerEvent.redacted`: no sink sees a
    /// credential), keeping it for later sinks while the container has not started.
    public mutating func record(_ unredacted: ContainerEvent) {
        let event = unredacted.redacted
        if startupEvents != nil {
            if startupEvents!.count < Self.startupLimit { startupEvents!.append(event) } else { startupEvents = nil }
        }
        for sink in sinks { sink.record(event) }
    }

    /// The container started: later sinks get only what happens from now on.
    public mutating func started() {
        startupEvents = nil
    }
}
