import CWebKitGTK
import Vitrine

/// Runs a `ListenerCheck` on a server Vitrine started: reads the sockets the process holds
/// every 100 ms on a GLib timeout until the check settles, then tells `onVerdict` once
/// (`.listening` or `.refused`). The timeout is this object's: removed when the check
/// settles, in `cancel()` and in `deinit`; it does nothing once its owner is gone.
@MainActor
final class ListenerWatch {
    private var check: ListenerCheck
    private let pid: Int32
    private let onVerdict: @MainActor (ListenerCheck.Verdict) -> Void
    private let started = ContinuousClock.now
    private var timer: guint = 0

    init(_ check: ListenerCheck, pid: Int32, onVerdict: @escaping @MainActor (ListenerCheck.Verdict) -> Void) {
        self.check = check
        self.pid = pid
        self.onVerdict = onVerdict
        let context = Unmanaged.passRetained(SignalContext(owner: self)).toOpaque()
        // 100 ms: a server's sockets appear within its first second; /proc reads are cheap.
        timer = g_timeout_add_full(G_PRIORITY_DEFAULT, 100, { data in
            onMainLoop(data) { data in
                guard let owner = SignalContext.owner(data, as: ListenerWatch.self) else { return gboolean(0) } // G_SOURCE_REMOVE
                return owner.tick() ? gboolean(1) : gboolean(0) // G_SOURCE_CONTINUE while waiting
            }
        }, context, { data in
            guard let data else { return }
            Unmanaged<SignalContext>.fromOpaque(data).release()
        })
    }

    /// Whether to keep polling.
    private func tick() -> Bool {
        // A process gone (or not readable) is its exit's to report, not this check's.
        guard let listeners = TCPListener.held(byProcess: pid) else {
            timer = 0
            return false
        }
        let verdict = check.observe(listeners, elapsed: ContinuousClock.now - started)
        guard verdict != .waiting else { return true }
        timer = 0
        onVerdict(verdict)
        return false
    }

    /// Stops checking; no verdict follows.
    func cancel() {
        if timer != 0 { g_source_remove(timer) }
        timer = 0
    }

    isolated deinit {
        cancel()
    }
}
