/// A view's print jobs: one at a time, none within `minimumGap` of the last one's end, at
/// most `perMinute` started in any minute. A page that calls `print()` beyond that (a
/// flood, a loop: WebKit returns from `print()` only once its job is done, so a loop asks
/// again at once) is refused and logged, never queued: paper is not the page's to spend.
///
/// Every request gets a number; each job started is finished exactly once (a second
/// `finish` for it, or one for a job that is not running, is ignored).
public struct PrintJobs: Sendable {
    /// What happens to a page's print request.
    public enum Decision: Sendable, Equatable {
        /// No `[printing]`: the configuration's native-dialog policy decides, as without it.
        case notConfigured
        /// Print silently with these settings; finish `job` when WebKit says it finished.
        case print(job: Int, settings: PrintSettings)
        /// Refused: another job is running (its event is `event`).
        case refused(ContainerEvent)
    }

    /// The least time between a job's end and the next job's start.
    public static let minimumGap: Duration = .seconds(1)
    /// The most jobs started in any 60 seconds.
    public static let perMinute = 10

    private let settings: PrintSettings?
    private var running: Int?
    private var lastNumber = 0
    /// When the last job ended, and when the recent ones started (a monotonic clock's time).
    private var lastEnd: Duration?
    private var recentStarts: [Duration] = []

    public init(settings: PrintSettings?) {
        self.settings = settings
    }

    /// Whether a job is being printed.
    public var isPrinting: Bool { running != nil }

    /// A page's request at `now` (a monotonic clock's time).
    public mutating func request(at now: Duration) -> Decision {
        guard let settings else { return .notConfigured }
        lastNumber += 1
        func refused(_ why: String) -> Decision {
            .refused(.print(queue: settings.destination.name, job: lastNumber, outcome: .refused, error: why))
        }
        if let running { return refused("job \(running) is still printing") }
        if let lastEnd, now - lastEnd < Self.minimumGap { return refused("too soon after the last job (one a second at most)") }
        recentStarts.removeAll { now - $0 >= .seconds(60) }
        if recentStarts.count >= Self.perMinute { return refused("\(Self.perMinute) jobs in the last minute: the most allowed") }
        if case .file(let uri) = settings.destination, let problem = PrintOutputFile.problem(uri) {
            // Checked again now: the file or a folder on its way may have become a link.
            return .refused(.print(queue: settings.destination.name, job: lastNumber, outcome: .failed,
                                   error: "output-uri \(problem)"))
        }
        running = lastNumber
        recentStarts.append(now)
        return .print(job: lastNumber, settings: settings)
    }

    /// The event for `job`'s end (`error` nil: printed), or nil when `job` is not the one
    /// running (already finished).
    public mutating func finish(_ job: Int, error: String?, at now: Duration) -> ContainerEvent? {
        guard let settings, running == job else { return nil }
        running = nil
        lastEnd = now
        return .print(queue: settings.destination.name, job: job, outcome: error == nil ? .printed : .failed, error: error)
    }
}
