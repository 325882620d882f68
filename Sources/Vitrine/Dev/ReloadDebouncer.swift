#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A burst of file events becomes one reload: `reload` runs once `quietPeriod` has passed
/// with no new event (each event starts the wait again).
@MainActor
public final class ReloadDebouncer {
    public let quietPeriod: Duration
    private let clock: any Clock<Duration>
    private let reload: @MainActor () -> Void
    private var pending: Task<Void, Never>?

    public init(quietPeriod: Duration = .milliseconds(150), clock: any Clock<Duration> = ContinuousClock(),
                reload: @escaping @MainActor () -> Void) {
        self.quietPeriod = quietPeriod
        self.clock = clock
        self.reload = reload
    }

    /// A file changed: the reload waits for the burst to end.
    public func fileChanged() {
        pending?.cancel()
        pending = Task { [weak self, clock, quietPeriod] in
            do { try await clock.sleep(for: quietPeriod) } catch { return } // cancelled: a newer event waits
            self?.fire()
        }
    }

    private func fire() {
        pending = nil
        reload()
    }

    isolated deinit {
        pending?.cancel()
    }
}
