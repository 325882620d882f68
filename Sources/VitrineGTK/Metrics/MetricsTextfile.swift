import CWebKitGTK
#if canImport(Glibc)
import Glibc
#endif
import Logging
import Vitrine

/// Writes a container's metrics (`ContainerMetrics`, with the process tree's memory) to a
/// file for node_exporter's textfile collector: at `start()`, every `interval` on a GLib
/// timeout (memory sampled off the main thread), and at `finish()` with `vitrine_up 0`.
///
/// Each write is atomic (`g_file_set_contents_full`: a temporary file in the same folder,
/// renamed over the old one), so the collector never reads half a file; the temporary
/// name does not end in `.prom`, so it is never read either. A folder that is missing or
/// not writable is logged (once, and again when writing works again) and the kiosk goes
/// on. The timeout is this object's: removed in `finish()` and in `deinit`, and it does
/// nothing once its owner is gone.
@MainActor
public final class MetricsTextfile {
    public let metrics: ContainerMetrics
    public let path: String
    private let interval: Duration
    /// Where the process tree is read (`/proc`; a fake tree in tests).
    private let proc: String
    /// The GLib source of the periodic write (0: none).
    private(set) var timer: guint = 0
    private var sampling = false
    private var lastMemory: ProcessTreeMemory?
    /// Whether the last write failed (so a failure is logged once, not every interval).
    private var failing = false
    /// The last write's error, if it failed.
    public private(set) var lastError: String?
    private let logger = Logger(label: "vitrine.metrics")

    public init(path: String, interval: Duration, metrics: ContainerMetrics = ContainerMetrics(), proc: String = "/proc") {
        self.path = path
        self.interval = interval
        self.metrics = metrics
        self.proc = proc
    }

    /// Writes the file now, then every `interval`.
    public func start() {
        tick()
        guard timer == 0 else { return }
        let milliseconds = max(1, guint(min(interval.inSeconds * 1000, Double(UInt32.max / 2))))
        let context = Unmanaged.passRetained(SignalContext(owner: self)).toOpaque()
        timer = g_timeout_add_full(G_PRIORITY_DEFAULT, milliseconds, { data in
            onMainLoop(data) { data in
                guard let owner = SignalContext.owner(data, as: MetricsTextfile.self) else { return gboolean(0) } // G_SOURCE_REMOVE
                owner.tick()
                return gboolean(1) // G_SOURCE_CONTINUE
            }
        }, context, { data in
            guard let data else { return }
            Unmanaged<SignalContext>.fromOpaque(data).release()
        })
    }

    /// The program is ending: stops the timer and writes `vitrine_up 0` at once (with the
    /// memory last sampled).
    public func finish() {
        stopTimer()
        metrics.up = false
        write(memory: lastMemory)
    }

    /// Samples the process tree's memory off the main thread (reading `smaps_rollup` makes
    /// the kernel walk each process's page tables: milliseconds the page should not wait),
    /// then writes on it. A tick while a sample is under way is skipped.
    private func tick() {
        guard !sampling else { return }
        sampling = true
        let proc = self.proc
        Task.detached(priority: .utility) { [weak self] in
            let memory = ProcessTreeMemory.sample(root: getpid(), proc: proc)
            await self?.sampled(memory)
        }
    }

    private func sampled(_ memory: ProcessTreeMemory?) {
        sampling = false
        lastMemory = memory
        write(memory: memory)
    }

    /// Renders and writes the metrics; false (and the error logged) if the file could not
    /// be written.
    @discardableResult
    private func write(memory: ProcessTreeMemory?) -> Bool {
        let text = metrics.render(memory: memory)
        var error: UnsafeMutablePointer<GError>?
        let written = text.withCString { bytes in
            g_file_set_contents_full(path, bytes, gssize(strlen(bytes)), G_FILE_SET_CONTENTS_CONSISTENT, 0o644, &error) != 0
        }
        if written {
            if failing { logger.notice("metrics: writing \(path) works again") }
            failing = false
            lastError = nil
            return true
        }
        let message = GLibError.take(&error, "cannot write").description
        lastError = message
        if !failing {
            logger.error("metrics: cannot write \(path): \(message) (is the folder there, and writable by this user?); the kiosk goes on without metrics")
        }
        failing = true
        return false
    }

    private func stopTimer() {
        if timer != 0 { g_source_remove(timer) }
        timer = 0
    }

    isolated deinit {
        stopTimer()
    }
}
