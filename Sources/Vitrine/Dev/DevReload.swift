#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What happened to a file in a folder `vitrine dev` watches (GLib's `GFileMonitorEvent`,
/// translated by the adapter).
public enum WatchedFileEvent: Sendable, Equatable {
    case changed, changesDone, created, deleted, renamed, movedIn, movedOut, attributeChanged, other
}

/// Which file events reload the page: contents written, files added, removed or renamed.
/// Not an attribute change (a read can update the access time) nor an editor's scratch file.
public enum DevReloadPolicy {
    public static func reloads(_ event: WatchedFileEvent, path: String) -> Bool {
        switch event {
        case .changed, .changesDone, .created, .deleted, .renamed, .movedIn, .movedOut:
            return !isScratchFile(path)
        case .attributeChanged, .other:
            return false
        }
    }

    /// Vim's swap files and its `4913` probe, Emacs' lock and backup files, `~` backups.
    static func isScratchFile(_ path: String) -> Bool {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        return name.hasSuffix(".swp") || name.hasSuffix(".swx") || name.hasSuffix("~") || name.hasPrefix(".#") || name == "4913"
    }
}

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
