import Foundation
import Testing

/// A clock that moves only when the test advances it: timeouts are proven by moving time,
/// not by waiting for it, and a test's verdict never depends on how busy the machine is.
///
/// Sleepers wake in deadline order (then in the order they went to sleep) when `advance`
/// reaches their deadline. `waitForSleepers` suspends until enough of them wait: the
/// positive signal that a timer (or a handler) is armed before the test moves time.
final class ManualClock: Clock, @unchecked Sendable {
    struct Instant: InstantProtocol {
        /// Time since the clock was made.
        let offset: Duration

        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private struct Sleeper {
        let id: UInt64
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct Watcher {
        let id: UInt64
        let count: Int
        let continuation: CheckedContinuation<Void, Never>
    }

    private let lock = NSLock()
    private var current = Instant(offset: .zero)
    private var sleepers: [Sleeper] = []
    private var watchers: [Watcher] = []
    private var lastID: UInt64 = 0

    var now: Instant { lock.withLock { current } }
    var minimumResolution: Duration { .zero }

    /// How many sleepers wait for a deadline not reached yet.
    var sleeperCount: Int { lock.withLock { sleepers.count } }

    func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = lock.withLock { newID() }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                lock.lock()
                if Task.isCancelled {
                    lock.unlock()
                    continuation.resume(throwing: CancellationError())
                } else if deadline <= current {
                    lock.unlock()
                    continuation.resume()
                } else {
                    sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    let satisfied = takeSatisfiedWatchers()
                    lock.unlock()
                    satisfied.forEach { $0.resume() }
                }
            }
        } onCancel: {
            let sleeper = lock.withLock { () -> Sleeper? in
                guard let index = sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                return sleepers.remove(at: index)
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves time forward by `duration` and wakes every sleeper whose deadline it reached,
    /// earliest deadline first.
    func advance(by duration: Duration) {
        let due = lock.withLock { () -> [Sleeper] in
            current = current.advanced(by: duration)
            let due = sleepers.filter { $0.deadline <= current }
            sleepers.removeAll { $0.deadline <= current }
            return due.sorted { ($0.deadline, $0.id) < ($1.deadline, $1.id) }
        }
        due.forEach { $0.continuation.resume() }
    }

    /// Returns once at least `count` sleepers wait (at once if they already do). A test
    /// that never gets there is stopped by its time limit (a cancelled wait returns).
    func waitForSleepers(_ count: Int) async {
        let id = lock.withLock { newID() }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                lock.lock()
                if sleepers.count >= count || Task.isCancelled {
                    lock.unlock()
                    continuation.resume()
                } else {
                    watchers.append(Watcher(id: id, count: count, continuation: continuation))
                    lock.unlock()
                }
            }
        } onCancel: {
            let watcher = lock.withLock { () -> Watcher? in
                guard let index = watchers.firstIndex(where: { $0.id == id }) else { return nil }
                return watchers.remove(at: index)
            }
            watcher?.continuation.resume()
        }
    }

    /// Called with the lock held.
    private func newID() -> UInt64 {
        lastID += 1
        return lastID
    }

    /// Called with the lock held: the watchers whose count is reached, removed.
    private func takeSatisfiedWatchers() -> [CheckedContinuation<Void, Never>] {
        let satisfied = watchers.filter { sleepers.count >= $0.count }
        watchers.removeAll { sleepers.count >= $0.count }
        return satisfied.map(\.continuation)
    }
}

/// A one-shot signal a test awaits: opened once, awaited by any number of waiters.
@MainActor
final class Latch {
    private var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func open() {
        isOpen = true
        let waiting = waiters
        waiters = []
        waiting.forEach { $0.resume() }
    }

    func wait() async {
        guard !isOpen else { return }
        await withCheckedContinuation { waiters.append($0) }
    }
}

/// What `body` produces, or nil with a recorded issue when it has not come after `limit` of
/// real time. A safety net, so that a broken timeout fails its test instead of hanging the
/// run; it bounds nothing a passing test does (`body` waits only for facts).
@MainActor
func eventually<T: Sendable>(
    _ what: Comment, limit: Duration = .seconds(30), sourceLocation: SourceLocation = #_sourceLocation,
    _ body: @escaping @MainActor () async -> T
) async -> T? {
    let result = await withCheckedContinuation { (continuation: CheckedContinuation<T?, Never>) in
        let once = OnceBox(continuation)
        Task { @MainActor in once.resume(await body()) }
        Task { @MainActor in
            try? await Task.sleep(for: limit)
            once.resume(nil)
        }
    }
    if result == nil { Issue.record("\(what): not after \(limit)", sourceLocation: sourceLocation) }
    return result
}

@MainActor
private final class OnceBox<T: Sendable> {
    private var continuation: CheckedContinuation<T?, Never>?
    init(_ continuation: CheckedContinuation<T?, Never>) { self.continuation = continuation }
    func resume(_ value: T?) {
        continuation?.resume(returning: value)
        continuation = nil
    }
}
