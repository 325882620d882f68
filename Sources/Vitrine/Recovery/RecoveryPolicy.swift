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

