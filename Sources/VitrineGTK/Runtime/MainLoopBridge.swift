import CWebKitGTK
import Glibc

/// Joins Swift's main dispatch queue (and so the main actor) to GLib's main loop.
///
/// GTK's loop never drains the main queue by itself, so `Task { @MainActor in … }` would
/// never run under `gtk_main()`. libdispatch exposes the main queue's wake-up descriptor for
/// foreign run loops (CoreFoundation's `_4CF` hooks); GLib watches it and drains the queue
/// whenever it becomes readable. The hooks have no public header, so they are looked up
/// with `dlsym` in the already-loaded libdispatch. Installed once, for the process's lifetime.
public enum MainLoopBridge {
    private typealias HandleFunction = @convention(c) () -> Int32
    private typealias DrainFunction = @convention(c) (UnsafeMutableRawPointer?) -> Void

    nonisolated(unsafe) private static var sourceID: guint = 0
    nonisolated(unsafe) private static var drain: DrainFunction?

    /// Installs the watch. Idempotent; must be called on the main thread.
    public static func install() {
        guard sourceID == 0 else { return }
        guard let handleSymbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "_dispatch_get_main_queue_handle_4CF"),
              let drainSymbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "_dispatch_main_queue_callback_4CF")
        else {
            fatalError("libdispatch does not export the main-queue run-loop hooks")
        }
        let handle = unsafeBitCast(handleSymbol, to: HandleFunction.self)
        drain = unsafeBitCast(drainSymbol, to: DrainFunction.self)
        sourceID = g_unix_fd_add(handle(), G_IO_IN, { fd, _, _ in
            // The handle is an eventfd: read it to re-arm, then run what was queued.
            var counter: UInt64 = 0
            _ = read(fd, &counter, MemoryLayout<UInt64>.size)
            MainLoopBridge.drain?(nil)
            return gboolean(1) // G_SOURCE_CONTINUE
        }, nil)
    }
}
