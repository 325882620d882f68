import CWebKitGTK
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// A program started with GLib's `GSubprocess`: its standard output and error are this
/// program's (a compiler's errors reach the terminal as they come), `onExit` is told its
/// status once, on the main loop (also when this object is gone: an owner's `onExit`
/// holds the owner weakly). Owns its reference to the subprocess; the pending wait holds another.
@MainActor
final class ChildProcess {
    private let process: OpaquePointer
    let arguments: [String]

    /// Starts `arguments[0]` (searched in `PATH`) with `environment` added to this process's;
    /// `endsWithParent`: the program is sent SIGTERM when this process dies, however it dies;
    /// `discardsOutput`: its standard output is dropped (where this program's carries events).
    init(_ arguments: [String], environment: [(String, String)] = [], endsWithParent: Bool = false,
         discardsOutput: Bool = false, onExit: @escaping @MainActor (Int32) -> Void) throws(GLibError) {
        self.arguments = arguments
        let launcher = g_subprocess_launcher_new(discardsOutput ? G_SUBPROCESS_FLAGS_STDOUT_SILENCE : G_SUBPROCESS_FLAGS_NONE)
        defer { g_object_unref(gptr(launcher!)) }
        for (name, value) in environment { g_subprocess_launcher_setenv(launcher, name, value, 1) }
        if endsWithParent { g_subprocess_launcher_set_child_setup(launcher, vitrine_child_ends_with_parent, nil, nil) }
        var error: UnsafeMutablePointer<GError>?
        guard let process = arguments.withCStringArray({ g_subprocess_launcher_spawnv(launcher, $0, &error) }) else {
            throw GLibError.take(&error, "cannot start \(arguments.first ?? "")")
        }
        self.process = process
        g_object_ref(gptr(process)) // the wait below holds its own until it calls back
        let waited = process
        AsyncCallback.call({ callback, data in
            g_subprocess_wait_async(waited, nil, callback, data)
        }, finish: { _, result in
            defer { g_object_unref(gptr(waited)) }
            _ = g_subprocess_wait_finish(waited, result, nil)
            let status: Int32 = g_subprocess_get_if_exited(waited) != 0
                ? g_subprocess_get_exit_status(waited) : 128 + g_subprocess_get_term_sig(waited)
            onExit(status)
        })
    }

    /// The program's process id while it runs (nil once it has been waited for).
    var pid: Int32? {
        g_subprocess_get_identifier(process).flatMap { Int32(String(cString: $0)) }
    }

    /// Asks the program to end (SIGTERM); `onExit` follows.
    func terminate() {
        g_subprocess_send_signal(process, SIGTERM)
    }

    isolated deinit {
        g_object_unref(gptr(process))
    }
}
