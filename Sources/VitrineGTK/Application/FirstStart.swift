import Vitrine

/// What the first window's start does beside the window: the process's start-up trace
/// (`StartupTrace.process`) in its events with `[events] startup-trace` (the phases reached
/// before the window existed at once, the rest as they come), and, once its first page has
/// loaded and the machine's media decoders are listed (the work that follows a load), the
/// release of the memory only the start needed (`ProcessMemory`): released earlier, most of
/// it comes back as that work runs.
@MainActor
final class FirstStart: WindowFeature {
    private weak var host: (any FeatureHost)?
    private let tracing: Bool
    private var recorded = 0
    private var pageLoaded = false, machineListed = false, released = false

    init(tracing: Bool) {
        self.tracing = tracing
    }

    func attach(to host: any FeatureHost) {
        self.host = host
        record()
    }

    func shown() {
        reached(.windowShown)
    }

    func loadChanged(_ load: PaneLoad) {
        if let phase = StartupPhase(firstLoad: load.event) { reached(phase) }
        if load.event == .finished {
            pageLoaded = true
            releaseOnceSettled()
        }
    }

    /// The machine's media decoders are listed (`MachineFacts`).
    func machineFactsListed() {
        machineListed = true
        releaseOnceSettled()
    }

    private func releaseOnceSettled() {
        guard pageLoaded, machineListed, !released else { return }
        released = true
        GTKRuntime.beforeNextWait { ProcessMemory.releaseStartupMemory() }
    }

    /// Marks `phase` (if it is the first time) and records what was reached since last time.
    private func reached(_ phase: StartupPhase) {
        StartupTrace.process.mark(phase)
        record()
    }

    private func record() {
        guard tracing, let host else { return }
        let marks = StartupTrace.process.reached
        guard marks.count > recorded else { return }
        for mark in marks[recorded...] { host.record(.startup(mark)) }
        recorded = marks.count
    }
}
