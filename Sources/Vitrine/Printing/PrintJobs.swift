/// A view's print jobs: one at a time. A page that calls `print()` while a job runs (a
/// flood, a loop) is refused and logged, never queued: paper is not the page's to spend.
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

    private let settings: PrintSettings?
    private var running: Int?
    private var lastNumber = 0

    public init(settings: PrintSettings?) {
        self.settings = settings
    }

    /// Whether a job is being printed.
    public var isPrinting: Bool { running != nil }

    public mutating func request() -> Decision {
        guard let settings else { return .notConfigured }
        lastNumber += 1
        guard running == nil else {
            return .refused(.print(queue: settings.destination.name, job: lastNumber, outcome: .refused,
                                   error: "job \(running ?? 0) is still printing"))
        }
        if case .file(let uri) = settings.destination, let problem = PrintOutputFile.problem(uri) {
            // Checked again now: the file or a folder on its way may have become a link.
            return .refused(.print(queue: settings.destination.name, job: lastNumber, outcome: .failed,
                                   error: "output-uri \(problem)"))
        }
        running = lastNumber
        return .print(job: lastNumber, settings: settings)
    }

    /// The event for `job`'s end (`error` nil: printed), or nil when `job` is not the one
    /// running (already finished).
    public mutating func finish(_ job: Int, error: String?) -> ContainerEvent? {
        guard let settings, running == job else { return nil }
        running = nil
        return .print(queue: settings.destination.name, job: job, outcome: error == nil ? .printed : .failed, error: error)
    }
}
