import CWebKitGTK

/// The C arguments of one GLib callback on their way into the main actor.
///
/// GLib calls every signal handler and async callback on the thread that runs its main
/// loop, which is the main actor's. C pointers are not `Sendable`; they never leave that
/// thread, so they cross into the main actor's isolation here, once, unchecked.
private struct MainLoopArguments<Arguments>: @unchecked Sendable {
    let value: Arguments
}

/// Runs `body` with a C callback's `arguments` on the main actor: the one way every
/// trampoline in this module enters Swift.
@inline(__always)
func onMainLoop<Arguments, Result: Sendable>(_ arguments: Arguments, _ body: @MainActor (Arguments) -> Result) -> Result {
    let crossing = MainLoopArguments(value: arguments)
    return MainActor.assumeIsolated { body(crossing.value) }
}

/// A GObject reference one Swift object owns: taken in `init` (sinking a floating
/// reference), dropped in `deinit`.
final class GObjectReference<Object>: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<Object>

    /// Takes a new reference to `object` (sinking it if floating, as a fresh GtkWidget is).
    init(retaining object: UnsafeMutablePointer<Object>) {
        pointer = g_object_ref_sink(gptr(object)).assumingMemoryBound(to: Object.self)
    }

    /// Adopts the reference the caller owns (a `…_new` result that is not floating).
    init(adopting object: UnsafeMutablePointer<Object>) {
        pointer = object
    }

    deinit {
        g_object_unref(gptr(pointer))
    }
}
