import Foundation

/// A clock that moves only when the test advances it: timeouts are proven by moving time,
/// not by waiting for it, and a test's verdict never depends on how busy the machine is.
///
/// Sleepers wake in deadline order (then in the order they went to sleep) when `advance`
/// reaches their deadline. `waitForSleepers` suspends until enough of them wait: the
/// positive signal that a timer (or a handler) is armed before the test moves time.
public final class ManualClock: Clock, @unchecked Sendable {
    public struct Instant: InstantProtocol {
        /// Time since the clock was made.
        public let offset: Duration

        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
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

    public init() {}

    public var now: Instant { lock.withLock { current } }
    public var minimumResolution: Duration { .zero }

    /// How many sleepers wait for a deadline not reached yet.
    public var sleeperCount: Int { lock.withLock { sleepers.count } }

    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
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
    public func advance(by duration: Duration) {
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
    public func waitForSleepers(_ count: Int) async {
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
