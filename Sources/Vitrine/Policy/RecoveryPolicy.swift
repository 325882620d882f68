/// What to do when a page's web process dies: reload it, unless it died too often
/// lately — then show the crash-loop page with a countdown instead of a restart storm.
public struct CrashLoopDetector: Sendable {
    public enum Response: Sendable, Equatable {
        case reload
        /// Show the crash-loop page; it retries by itself after `countdownSeconds`.
        case showCrashLoopPage(countdownSeconds: Int)
    }

    private let options: KioskOptions
    private var deaths: [ContinuousClock.Instant] = []

    public init(options: KioskOptions) {
        self.options = options
    }

    /// Counts a death at `now` and answers it. More than `crashLoopLimit` deaths within
    /// `crashLoopWindow` is a crash loop; the count starts again after one.
    public mutating func processDied(at now: ContinuousClock.Instant) -> Response {
        deaths = deaths.filter { now - $0 < options.crashLoopWindow } + [now]
        guard deaths.count > options.crashLoopLimit else { return .reload }
        deaths.removeAll()
        return .showCrashLoopPage(countdownSeconds: Int(options.crashLoopBackoff.components.seconds))
    }
}

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
