import CWebKitGTK
#if canImport(Glibc)
import Glibc
#endif
import Vitrine

/// Runs a build tool (`swift build`, `dpkg-deb`, `tar`…) to its end with GLib's
/// `g_spawn_sync`, in a given folder: its standard error goes to this program's (the
/// compiler's or lintian's messages reach the terminal), its standard output is returned
/// or, with `showsOutput`, shown too. No `Foundation.Process` (see `ProgramOutput`).
public enum ToolRun {
    /// What a finished tool left.
    public struct Result: Sendable {
        /// The exit status (128 + the signal's number when a signal ended it).
        public var status: Int32
        /// Its standard output (empty with `showsOutput`).
        public var output: String
    }

    /// Why a tool could not be started (GLib's message: not found, not executable…).
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Runs `arguments[0]` (searched in PATH); throws when it cannot be started.
    /// With `discardsErrors`, its standard error goes to /dev/null instead.
    public static func run(_ arguments: [String], in folder: String? = nil, showsOutput: Bool = false,
                           discardsErrors: Bool = false, environment: [String: String] = [:]) throws(Failure) -> Result {
        var output: UnsafeMutablePointer<gchar>?
        var status: gint = 0
        var error: UnsafeMutablePointer<GError>?
        let flags = GSpawnFlags(rawValue: G_SPAWN_SEARCH_PATH.rawValue
                                | (showsOutput ? G_SPAWN_CHILD_INHERITS_STDOUT.rawValue : 0)
                                | (discardsErrors ? G_SPAWN_STDERR_TO_DEV_NULL.rawValue : G_SPAWN_CHILD_INHERITS_STDERR.rawValue))
        // The environment: this process's, with `environment` set over it.
        var variables: UnsafeMutablePointer<UnsafeMutablePointer<gchar>?>? = g_get_environ()
        for (name, value) in environment { variables = g_environ_setenv(variables, name, value, 1) }
        defer { g_strfreev(variables) }
        let started = withUnsafeMutablePointer(to: &output) { outputPointer in
            arguments.withCStringArray { argv in
                g_spawn_sync(folder, UnsafeMutableRawPointer(argv).assumingMemoryBound(to: UnsafeMutablePointer<gchar>?.self),
                             variables, flags, nil, nil, showsOutput ? nil : outputPointer, nil, &status, &error)
            }
        }
        defer { g_free(output) }
        guard started != 0 else { throw Failure(description: GLibError.take(&error, "cannot run \(arguments.first ?? "")").description) }
        // The wait status as waitpid(2) gives it (WIFEXITED's macros are not imported).
        let code: Int32 = status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return Result(status: code, output: output.map { String(cString: $0) } ?? "")
    }
}
