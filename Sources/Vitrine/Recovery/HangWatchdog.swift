/// Hang detection by probes: every `interval` the watchdog asks the page's process to run
/// a trivial script; a probe left unanswered for `timeout` means the process hangs.
public struct HangWatchdog: Sendable {
    public enum Step: Sendable, Equatable {
        /// Nothing to do this time.
        case wait
        /// Send a probe now.
        case sendProbe
        /// The process hangs: terminate it (recovery then reloads the page).
        case terminate
    }

    public let timeout: Duration
    /// When the oldest unanswered probe was sent.
    public private(set) var probeSentAt: ContinuousClock.Instant?

    public init(timeout: Duration) {
        self.timeout = timeout
    }

    /// How often `tick` should run.
    public var interval: Duration { timeout / 4 }

    /// One tick at `now`. `canProbe`: a page is shown and not loading (a loading page's
    /// process is busy by design).
    public mutating func tick(at now: ContinuousClock.Instant, canProbe: Bool) -> Step {
        if let sent = probeSentAt {
            guard now - sent >= timeout else { return .wait }
            probeSentAt = nil
            return .terminate
        }
        guard canProbe else { return .wait }
        probeSentAt = now
        return .sendProbe
    }

    /// The probe sent at `sent` was answered. Only the probe still awaited counts: a late
    /// answer from before a restart does not.
    public mutating func probeAnswered(sentAt sent: ContinuousClock.Instant) {
        if probeSentAt == sent { probeSentAt = nil }
    }

    /// The process died or restarted: no probe is awaited any more.
    public mutating func reset() {
        probeSentAt = nil
    }
}
