import CWebKitGTK

/// Work another thread hands to GLib's main loop (and so to the main actor): a library's
/// own thread (libmosquitto's) never touches GTK or the container; it posts here.
enum MainLoopHop {
    private final class Work: @unchecked Sendable {
        let body: @Sendable @MainActor () -> Void
        init(_ body: @escaping @Sendable @MainActor () -> Void) { self.body = body }
    }

    /// Runs `body` once on the main loop, from any thread.
    static func post(_ body: @escaping @Sendable @MainActor () -> Void) {
        let work = Unmanaged.passRetained(Work(body)).toOpaque()
        g_idle_add_full(G_PRIORITY_DEFAULT, { data in
            onMainLoop(data) { data in Unmanaged<Work>.fromOpaque(data!).takeUnretainedValue().body() }
            return gboolean(0) // G_SOURCE_REMOVE
        }, work, { data in Unmanaged<Work>.fromOpaque(data!).release() })
    }
}
