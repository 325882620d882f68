import CWebKitGTK
import Foundation
import MainQueueOnMainThread
import VitrineGTK
import VitrineTesting

/// GTK and WebKit in a test process: initialised once, on the main thread, where GLib's main
/// loop runs for the whole process (MainQueueOnMainThread's `dispatch_main`), and waits that
/// end from the loop itself when their fact holds.
///
/// Nothing here sleeps or polls on a timer: the loop sleeps in poll() until something real
/// happens (an X event, a WebKit message, a main-queue job), and a wait re-checks its fact
/// on each turn of the loop, after that turn's dispatches. The deadline of a wait is a GLib
/// timeout source that only fails it.
@MainActor
public enum TestLoop {
    private static var started = false

    /// Initialises GTK (once) and keeps the apps' data of this run apart from the user's.
    public static func start() {
        guard !started else { return }
        started = true
        precondition(Thread.isMainThread && vitrine_tests_main_queue_runs_on_main_thread() != 0,
                     "window tests need GLib's loop and the main actor on the main thread (MainQueueOnMainThread)")
        AppDataIsolation.keepAppDataInThisRun()
        GTKRuntime.initialize()
    }

    /// Waits until `condition` holds, re-checked after every turn of GLib's main loop (every
    /// state it reads changes in one); false after `timeout`.
    public static func wait(timeout: Duration = .seconds(20), until condition: @escaping @MainActor () -> Bool) async -> Bool {
        if condition() { return true }
        return await withCheckedContinuation { continuation in
            ConditionWait(condition: condition, timeout: timeout, continuation: continuation).attach()
        }
    }

    /// Waits for `signal` of `instance` (one that returns nothing: `notify::title`, `map`,
    /// `size-allocate`, …) until `condition` holds when it is emitted (checked at once too):
    /// the wait ends from the signal's own handler. False after `timeout`.
    public static func wait(
        for signal: String, of instance: OpaquePointer?, timeout: Duration = .seconds(20),
        until condition: @escaping @MainActor () -> Bool
    ) async -> Bool {
        if condition() { return true }
        return await withCheckedContinuation { continuation in
            SignalWait(signal: signal, instance: instance, condition: condition, timeout: timeout, continuation: continuation).attach()
        }
    }

    /// The milliseconds of a GLib timeout for `duration`, at least 1.
    static func milliseconds(_ duration: Duration) -> guint {
        let (seconds, attoseconds) = duration.components
        return guint(max(1, seconds * 1000 + attoseconds / 1_000_000_000_000_000))
    }
}

/// One `TestLoop.wait(until:)`: a GSource whose `prepare` (each turn, before the loop
/// sleeps) and `check` (after it wakes) test the condition, and a timeout source. Whichever
/// ends it first removes both and answers the waiter, once.
@MainActor
private final class ConditionWait {
    /// The waits whose source is attached, by source: GLib's callbacks find theirs here.
    static var attached: [UInt: ConditionWait] = [:] // by the source's address

    private static let callbacks: UnsafeMutablePointer<GSourceFuncs> = {
        let callbacks = UnsafeMutablePointer<GSourceFuncs>.allocate(capacity: 1)
        callbacks.initialize(to: GSourceFuncs(
            prepare: { source, timeout in
                timeout?.pointee = -1 // the timeout source bounds the wait, not this one
                let key = UInt(bitPattern: source)
                return MainActor.assumeIsolated { ConditionWait.holds(key) }
            },
            check: { source in
                let key = UInt(bitPattern: source)
                return MainActor.assumeIsolated { ConditionWait.holds(key) }
            },
            dispatch: { source, _, _ in
                let key = UInt(bitPattern: source)
                MainActor.assumeIsolated { ConditionWait.attached[key]?.finish(true) }
                return 0 // G_SOURCE_REMOVE
            },
            finalize: nil, closure_callback: nil, closure_marshal: nil))
        return callbacks
    }()

    private let condition: @MainActor () -> Bool
    private let timeout: Duration
    private var continuation: CheckedContinuation<Bool, Never>?
    private var source: UnsafeMutablePointer<GSource>?
    private var deadline: guint = 0

    init(condition: @escaping @MainActor () -> Bool, timeout: Duration, continuation: CheckedContinuation<Bool, Never>) {
        self.condition = condition
        self.timeout = timeout
        self.continuation = continuation
    }

    private static func holds(_ key: UInt) -> gboolean {
        guard let wait = attached[key] else { return 0 }
        return wait.condition() ? 1 : 0
    }

    func attach() {
        let source = g_source_new(Self.callbacks, guint(MemoryLayout<GSource>.size))!
        g_source_set_name(source, "vitrine tests: condition wait")
        self.source = source
        Self.attached[UInt(bitPattern: source)] = self
        g_source_attach(source, nil)
        deadline = g_timeout_add_full(G_PRIORITY_DEFAULT, TestLoop.milliseconds(timeout), { data in
            MainActor.assumeIsolated {
                let wait = Unmanaged<ConditionWait>.fromOpaque(data!).takeUnretainedValue()
                wait.deadline = 0 // this source ends by returning G_SOURCE_REMOVE
                wait.finish(false)
            }
            return 0
        }, Unmanaged.passRetained(self).toOpaque(), { data in
            Unmanaged<ConditionWait>.fromOpaque(data!).release()
        })
    }

    /// Answers the waiter and removes both sources; later calls do nothing.
    func finish(_ held: Bool) {
        guard let continuation else { return }
        self.continuation = nil
        if let source {
            Self.attached[UInt(bitPattern: source)] = nil
            g_source_destroy(source)
            g_source_unref(source)
            self.source = nil
        }
        if deadline != 0 { g_source_remove(deadline) }
        deadline = 0
        continuation.resume(returning: held)
    }
}

/// One `TestLoop.wait(for:of:until:)`: a signal handler that checks the condition on each
/// emission, and a timeout source; whichever ends it disconnects the other.
@MainActor
private final class SignalWait {
    private let signal: String
    private let instance: OpaquePointer?
    private let condition: @MainActor () -> Bool
    private let timeout: Duration
    private var continuation: CheckedContinuation<Bool, Never>?
    private var handler: gulong = 0
    private var deadline: guint = 0

    init(signal: String, instance: OpaquePointer?, condition: @escaping @MainActor () -> Bool, timeout: Duration,
         continuation: CheckedContinuation<Bool, Never>) {
        self.signal = signal
        self.instance = instance
        self.condition = condition
        self.timeout = timeout
        self.continuation = continuation
    }

    func attach() {
        let box = Unmanaged.passRetained(self).toOpaque()
        // Connected swapped, so the user data comes first whatever the signal's arguments
        // (GObject passes them after it; a C function that ignores them can take them).
        // Only for signals that return nothing (notify::…, map, unmap, size-allocate, …).
        let emitted: @convention(c) (gpointer?) -> Void = { data in
            MainActor.assumeIsolated {
                let wait = Unmanaged<SignalWait>.fromOpaque(data!).takeUnretainedValue()
                if wait.condition() { wait.finish(true) }
            }
        }
        handler = g_signal_connect_data(gpointer(instance), signal, unsafeBitCast(emitted, to: GCallback.self), box, { data, _ in
            Unmanaged<SignalWait>.fromOpaque(data!).release()
        }, G_CONNECT_SWAPPED)
        precondition(handler != 0, "no signal \(signal) on this instance")
        deadline = g_timeout_add_full(G_PRIORITY_DEFAULT, TestLoop.milliseconds(timeout), { data in
            MainActor.assumeIsolated {
                let wait = Unmanaged<SignalWait>.fromOpaque(data!).takeUnretainedValue()
                wait.deadline = 0
                wait.finish(false)
            }
            return 0
        }, Unmanaged.passRetained(self).toOpaque(), { data in
            Unmanaged<SignalWait>.fromOpaque(data!).release()
        })
    }

    func finish(_ held: Bool) {
        guard let continuation else { return }
        self.continuation = nil
        if handler != 0 { g_signal_handler_disconnect(gpointer(instance), handler) }
        handler = 0
        if deadline != 0 { g_source_remove(deadline) }
        deadline = 0
        continuation.resume(returning: held)
    }
}
