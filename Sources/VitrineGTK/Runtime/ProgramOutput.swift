import CWebKitGTK
#if canImport(Glibc)
import Glibc
#endif
import Vitrine

/// Runs a program found on PATH to its end and gives its standard output (standard error
/// goes nowhere): GLib's `g_spawn_sync`, safe from any thread, so that the program needs
/// no `Foundation.Process` (which brings Foundation's internationalization data with it).
public enum ProgramOutput {
    /// The output, or nil when the program is missing, cannot start or exits with a failure.
    public static func of(_ program: String, _ arguments: [String]) -> String? {
        var output: UnsafeMutablePointer<gchar>?
        var status: gint = 0
        let flags = GSpawnFlags(rawValue: G_SPAWN_SEARCH_PATH.rawValue | G_SPAWN_STDERR_TO_DEV_NULL.rawValue)
        let started = ([program] + arguments).withCStringArray { argv in
            g_spawn_sync(nil, UnsafeMutableRawPointer(argv).assumingMemoryBound(to: UnsafeMutablePointer<gchar>?.self),
                         nil, flags, nil, nil, &output, nil, &status, nil)
        }
        defer { g_free(output) }
        guard started != 0, g_spawn_check_wait_status(status, nil) != 0, let output else { return nil }
        return String(cString: output)
    }
}
