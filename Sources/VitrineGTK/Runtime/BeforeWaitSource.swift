import CWebKitGTK

/// A GSource that never dispatches: GLib calls its `prepare` on every turn of the default
/// main context, after the turn's dispatches and before it polls, which is where queued
/// one-shot work runs (`GTKRuntime.beforeNextWait`).
///
/// Lifetime: created and attached on first use, kept for the life of the process (one per
/// process, like the main loop it hooks).
@MainActor
final class BeforeWaitSource {
    static let shared = BeforeWaitSource()

    private var work: [@MainActor () -> Void] = []

    /// GLib keeps a pointer to the callbacks for the source's life: allocated once, never freed.
    private static let callbacks: UnsafeMutablePointer<GSourceFuncs> = {
        let callbacks = UnsafeMutablePointer<GSourceFuncs>.allocate(capacity: 1)
        callbacks.initialize(to: GSourceFuncs(
            prepare: { _, timeout in
                MainActor.assumeIsolated { BeforeWaitSource.shared.runQueuedWork() }
                timeout?.pointee = -1 // no opinion on how long the loop may wait
                return 0 // never ready: `dispatch` is never called
            },
            check: { _ in 0 },
            dispatch: { _, _, _ in 1 },
            finalize: nil, closure_callback: nil, closure_marshal: nil))
        return callbacks
    }()

    private init() {
        let source = g_source_new(Self.callbacks, guint(MemoryLayout<GSource>.size))
        g_source_set_name(source, "vitrine: before wait")
        g_source_attach(source, nil)
        g_source_unref(source) // the context holds it
    }

    func add(_ work: @escaping @MainActor () -> Void) {
        self.work.append(work)
    }

    private func runQueuedWork() {
        guard !work.isEmpty else { return }
        let queued = work
        work.removeAll(keepingCapacity: true)
        for item in queued { item() }
    }
}
