import Vitrine

/// Runs a program found on PATH to its end and gives its standard output (standard error
/// goes nowhere): `ToolRun`, GLib's `g_spawn_sync`, safe from any thread, so that the
/// program needs no `Foundation.Process` (which brings Foundation's internationalization
/// data with it).
public enum ProgramOutput {
    /// The output, or nil when the program is missing, cannot start or exits with a failure.
    public static func of(_ program: String, _ arguments: [String]) -> String? {
        guard let result = try? ToolRun.run([program] + arguments, discardsErrors: true), result.status == 0 else { return nil }
        return result.output
    }
}
