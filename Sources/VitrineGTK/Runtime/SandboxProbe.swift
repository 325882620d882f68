import CWebKitGTK
import Vitrine

/// Runs `WebSandbox`'s probe (bubblewrap making a web process's namespaces) before the
/// first view: nil when the sandbox can start, else why not, for the person at the kiosk.
public enum SandboxProbe {
    public static func problem() -> String? {
        var output: UnsafeMutablePointer<gchar>?
        var status: gint = 0
        var error: UnsafeMutablePointer<GError>?
        // Standard output (the proxy's help text) goes nowhere; bwrap's complaint, on
        // standard error, is kept for the message.
        let started = WebSandbox.probeArguments.withCStringArray { argv in
            g_spawn_sync(nil, UnsafeMutableRawPointer(argv).assumingMemoryBound(to: UnsafeMutablePointer<gchar>?.self), nil,
                         G_SPAWN_STDOUT_TO_DEV_NULL, nil, nil, nil, &output, &status, &error)
        }
        defer { g_free(output) }
        let launchError = started == 0 ? error.map { String(cString: $0.pointee.message) } ?? "unknown error" : nil
        if let error { g_error_free(error) }
        let succeeded = started != 0 && g_spawn_check_wait_status(status, nil) != 0
        return WebSandbox.problem(launchError: launchError, status: succeeded ? 0 : max(1, status >> 8),
                                  output: output.map { String(cString: $0) } ?? "")
    }
}
