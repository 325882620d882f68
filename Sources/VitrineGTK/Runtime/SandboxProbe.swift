import CWebKitGTK
#if canImport(Glibc)
import Glibc
#endif
import Vitrine

/// `WebSandbox`'s probe (bubblewrap making a web process's namespaces), started at once and
/// judged before the first view: it runs while GTK starts, which hides most of its cost
/// (tens of milliseconds, most of it making the network namespace).
public final class SandboxProbe {
    private var pid: GPid = 0
    /// bwrap's standard error (its complaint); standard output goes nowhere.
    private var errorOutput: gint = -1
    private var launchError: String?
    private var verdict: String??

    /// Starts the probe.
    public init() {
        var error: UnsafeMutablePointer<GError>?
        // Descriptors left open let GLib start it with posix_spawn (vfork) rather than fork,
        // which copied this process's page tables: 0.3 ms on the way to GTK instead of 2.3.
        // The probe only prints xdg-dbus-proxy's help in a throwaway sandbox; this process
        // opens its own files close-on-exec.
        let flags = GSpawnFlags(rawValue: G_SPAWN_DO_NOT_REAP_CHILD.rawValue | G_SPAWN_STDOUT_TO_DEV_NULL.rawValue
                                    | G_SPAWN_LEAVE_DESCRIPTORS_OPEN.rawValue)
        let started = WebSandbox.probeArguments.withCStringArray { argv in
            g_spawn_async_with_pipes(nil, UnsafeMutableRawPointer(argv).assumingMemoryBound(to: UnsafeMutablePointer<gchar>?.self),
                                     nil, flags, nil, nil, &pid, nil, nil, &errorOutput, &error)
        }
        if started == 0 {
            launchError = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
            g_error_free(error)
        }
    }

    deinit { _ = problem() }  // reaps the probe if nobody asked

    /// Waits for the probe: nil when the sandbox can start, else why not, for the person at
    /// the kiosk. Asked again, the same answer.
    public func problem() -> String? {
        if let verdict { return verdict }
        var output: [UInt8] = []
        var status: Int32 = 0
        if launchError == nil {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(errorOutput, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                if output.count < 64 * 1024 { output += buffer[0..<count] }
            }
            close(errorOutput)
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            g_spawn_close_pid(pid)
        }
        let succeeded = launchError == nil && g_spawn_check_wait_status(status, nil) != 0
        let answer = WebSandbox.problem(launchError: launchError, status: succeeded ? 0 : max(1, status >> 8),
                                        output: String(decoding: output, as: UTF8.self))
        verdict = .some(answer)
        return answer
    }
}
