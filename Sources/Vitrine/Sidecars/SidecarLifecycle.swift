#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where a sidecar is in its life, as the page reads it (`vitrine.sidecars.get`).
public enum SidecarState: String, Sendable, CaseIterable, Codable {
    /// Started, not ready yet.
    case starting
    /// Its readiness check passed: the page may use its port.
    case ready
    /// Ended; started again after a pause (its restart policy).
    case restarting
    /// Ended and left so (`restart = "never"`, or a clean end with `on-failure`).
    case exited
    /// Given up on: never ready in time, not startable, or ending too often.
    case failed
    /// Stopped with the app.
    case stopped
}

/// How a sidecar process ended: its exit status, or the signal that killed it.
public enum SidecarExit: Sendable, Equatable {
    case code(Int32)
    case signal(Int32)

    public var isFailure: Bool { self != .code(0) }
}

/// Waits between restarts: `first`, doubling to `cap`; after `budget` restarts in a row
/// that did not stay up `stable` long, the sidecar counts as failed rather than restarted
/// forever (a broken binary must not spin).
public struct SidecarBackoff: Sendable, Equatable {
    public var first: Duration
    public var cap: Duration
    public var budget: Int
    public var stable: Duration

    public init(first: Duration = .milliseconds(500), cap: Duration = .seconds(30), budget: Int = 5, stable: Duration = .seconds(60)) {
        self.first = first
        self.cap = cap
        self.budget = budget
        self.stable = stable
    }

    /// The wait before restart number `attempt` (1 for the first).
    public func delay(attempt: Int) -> Duration {
        var delay = first
        for _ in 1..<max(attempt, 1) where delay < cap { delay = delay * 2 }
        return min(delay, cap)
    }
}

/// One sidecar's state machine: starting → ready → exited / restarting / failed / stopped.
/// The adapter reports what happened (`started`, `becameReady`, `exited`…) and carries out
/// what each report returns; times are given, never read.
public struct SidecarLifecycle: Sendable {
    /// What the adapter does next.
    public enum Step: Sendable, Equatable {
        /// Nothing more.
        case none
        /// Start the process again after this pause.
        case restart(after: Duration)
        /// Kill the running process (its readiness timed out).
        case kill
    }

    public let declaration: SidecarDeclaration
    public let backoff: SidecarBackoff
    public private(set) var state: SidecarState = .starting
    /// Restarts in a row without a stable run.
    public private(set) var restarts = 0
    /// The last way the process ended.
    public private(set) var lastExit: SidecarExit?
    private var startedAt: Duration?

    public init(_ declaration: SidecarDeclaration, backoff: SidecarBackoff = SidecarBackoff()) {
        self.declaration = declaration
        self.backoff = backoff
    }

    /// Whether the process should be running now.
    public var isLive: Bool { state == .starting || state == .ready }

    /// The process started at `now`.
    public mutating func started(at now: Duration) {
        state = .starting
        startedAt = now
    }

    /// The process could not be started at all: failed, never retried (it would fail the same way).
    public mutating func couldNotStart() {
        state = .failed
    }

    /// The readiness check passed; whether that is news (the `ready` event and page event).
    public mutating func becameReady() -> Bool {
        guard state == .starting else { return false }
        state = .ready
        return true
    }

    /// The readiness check ran out of time: failed, and the process is killed (no restart).
    public mutating func readyTimedOut() -> Step {
        guard state == .starting else { return .none }
        state = .failed
        return .kill
    }

    /// The app is stopping its sidecars: no restart from here on.
    public mutating func stopping() {
        state = .stopped
    }

    /// The process ended at `now`, `exit`; what to do.
    public mutating func exited(_ exit: SidecarExit, at now: Duration) -> Step {
        lastExit = exit
        guard isLive else { return .none }  // stopped or failed already: it was meant to end
        if let startedAt, now - startedAt >= backoff.stable { restarts = 0 }
        let restarts = switch declaration.restart {
        case .never: false
        case .onFailure: exit.isFailure
        case .always: true
        }
        guard restarts else {
            state = exit.isFailure ? .failed : .exited
            return .none
        }
        guard self.restarts < backoff.budget else {
            state = .failed
            return .none
        }
        self.restarts += 1
        state = .restarting
        return .restart(after: backoff.delay(attempt: self.restarts))
    }
}
