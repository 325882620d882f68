import CWebKitGTK
import Glibc

/// Joins Swift's main dispatch queue (and so the main actor) to GLib's main loop.
///
/// GTK's loop never drains the main queue by itself, so `Task { @MainActor in … }` would
/// never run under `gtk_main()`. libdispatch exposes the main queue's wake-up descriptor for
/// foreign run loops (CoreFoundation's `_4CF` hooks, an eventfd on Linux); GLib watches it
/// and drains the queue whenever it becomes readable. Installed once, for the process's
/// lifetime.
public enum MainLoopBridge {
    nonisolated(unsafe) private static var sourceID: guint = 0

    /// Installs the watch. Idempotent; must be called on the main thread.
    public static func install() {
        guard sourceID == 0 else { return }
        sourceID = g_unix_fd_add(_dispatch_get_main_queue_handle_4CF(), G_IO_IN, { fd, _, _ in
            // Read the eventfd to re-arm it, then run what was queued.
            var counter: UInt64 = 0
            _ = read(fd, &counter, MemoryLayout<UInt64>.size)
            _dispatch_main_queue_callback_4CF(nil)
            return gboolean(1) // G_SOURCE_CONTINUE
        }, nil)
    }
}
