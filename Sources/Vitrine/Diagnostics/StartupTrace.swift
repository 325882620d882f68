#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// The moments a start goes through, from the process's first instruction to the first
/// page's load, in the order they usually come. Phases that a run skips (the sandbox probe
/// of an unsandboxed run, the bus registration of a run alone) are absent from its trace.
public enum StartupPhase: String, Sendable, CaseIterable {
    /// `main` is entered (after the dynamic loader and static initialisers).
    case processStart = "process-start"
    /// The command line is parsed.
    case optionsParsed = "options-parsed"
    /// The configuration is built (file read, preset refined).
    case configured
    /// GTK is initialised (the display is open).
    case gtkInitialized = "gtk-initialized"
    /// The web-process sandbox's probe has answered (sandboxed runs only).
    case sandboxProbed = "sandbox-probed"
    /// The web context is made (sandbox, data manager, schemes set).
    case webContext = "web-context"
    /// The first web view is made.
    case firstView = "first-view"
    /// The first page's load is asked for.
    case loadRequested = "load-requested"
    /// The app is the session bus's instance of its id (single-instance runs only).
    case registered
    /// The first window is shown.
    case windowShown = "window-shown"
    /// The first page's load started, was committed, finished (WebKit's `load-changed`).
    case loadStarted = "load-started"
    case loadCommitted = "load-committed"
    case loadFinished = "load-finished"
}

/// When each start-up phase was reached, in milliseconds of `CLOCK_MONOTONIC` (the clock a
/// benchmark's `time.monotonic()` reads, so its own spawn time is comparable). Marking is
/// a clock read and an append, cheap enough to happen in every run; the events log gets
/// the marks only when `[events] startup-trace` asks for them.
public final class StartupTrace: Sendable {
    /// One phase reached.
    public struct Mark: Sendable, Equatable {
        public let phase: StartupPhase
        /// `CLOCK_MONOTONIC`, milliseconds.
        public let monotonic: Double

        public init(phase: StartupPhase, monotonic: Double) {
            self.phase = phase
            self.monotonic = monotonic
        }
    }

    /// The process's trace.
    public static let process = StartupTrace()

    private let marks = Mutex<[Mark]>([])

    public init() {}

    /// Notes that `phase` is reached now, the first time only (a later window's view or
    /// load is not the start's); the mark, or nil when the phase was already reached.
    @discardableResult
    public func mark(_ phase: StartupPhase, at monotonic: Double = StartupTrace.now()) -> Mark? {
        marks.withLock { marks in
            guard !marks.contains(where: { $0.phase == phase }) else { return nil }
            let mark = Mark(phase: phase, monotonic: monotonic)
            marks.append(mark)
            return mark
        }
    }

    /// Every phase reached so far, in the order reached.
    public var reached: [Mark] { marks.withLock { $0 } }

    /// `CLOCK_MONOTONIC` now, in milliseconds.
    public static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) * 1000 + Double(time.tv_nsec) / 1_000_000
    }
}

extension StartupPhase {
    /// The phase a load event of the first page marks, if any.
    public init?(firstLoad event: ContainerEvent.LoadEvent) {
        switch event {
        case .started: self = .loadStarted
        case .committed: self = .loadCommitted
        case .finished: self = .loadFinished
        case .redirected, .failed, .tlsError: return nil
        }
    }
}
