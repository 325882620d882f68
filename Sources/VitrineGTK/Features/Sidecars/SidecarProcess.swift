import CWebKitGTK
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import Vitrine

/// One run of a sidecar's program: started through GLib's `GSubprocess` (a fork, since its
/// child setup — `vitrine_sidecar_child_setup` — gives it a process group of its own and
/// the parent-death signal, which `posix_spawn` cannot), its standard output and error
/// read on the main loop in chunks, its end told once. GSubprocess rather than a fork of
/// our own: GLib reaps the child through its child watch, which the rest of the program
/// (`ChildProcess`) relies on too, and a second reaper would race it.
///
/// `onOutput` and `onExit` hold their owner weakly; once this object is gone nothing more
/// is told (the supervisor has killed the process by then).
@MainActor
final class SidecarProcess {
    typealias Stream = SidecarOutput.Stream

    private let process: OpaquePointer
    /// The process id, which is also its session's and process group's id.
    let pid: Int32
    /// Its controlling terminal's master side: open while it runs (closed, it hangs up).
    private let terminal: SidecarTerminal?
    private var onOutput: ((Stream, [UInt8]) -> Void)?
    private var onExit: ((SidecarExit) -> Void)?

    /// Starts `declaration.command` in `folder` with its arguments, its environment and
    /// `VITRINE_SIDECAR_PORT` = `port` added to this process's (less systemd's notify
    /// variables, which belong to Vitrine alone).
    init(_ declaration: SidecarDeclaration, port: Int, folder: String?, onOutput: @escaping (Stream, [UInt8]) -> Void,
         onExit: @escaping (SidecarExit) -> Void) throws(GLibError) {
        let flags = GSubprocessFlags(rawValue: G_SUBPROCESS_FLAGS_STDOUT_PIPE.rawValue | G_SUBPROCESS_FLAGS_STDERR_PIPE.rawValue)
        let launcher = g_subprocess_launcher_new(flags)
        defer { g_object_unref(gptr(launcher!)) }
        for variable in ["NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID"] { g_subprocess_launcher_unsetenv(launcher, variable) }
        for variable in declaration.environment { g_subprocess_launcher_setenv(launcher, variable.name, variable.value, 1) }
        g_subprocess_launcher_setenv(launcher, SidecarDeclaration.portVariable, String(port), 1)
        if let folder { g_subprocess_launcher_set_cwd(launcher, folder) }
        let terminal = SidecarTerminal()
        self.terminal = terminal
        // Read by the child between fork and exec: it must outlive the spawn call only.
        let setup = UnsafeMutablePointer<VitrineSidecarSetup>.allocate(capacity: 1)
        defer { setup.deallocate() }
        setup.initialize(to: VitrineSidecarSetup())
        setup.pointee.parent = getpid()
        withUnsafeMutableBytes(of: &setup.pointee.terminal) { bytes in
            let path = Array((terminal?.path ?? "").utf8.prefix(bytes.count - 1)) + [0]
            bytes.copyBytes(from: path)
        }
        g_subprocess_launcher_set_child_setup(launcher, vitrine_sidecar_child_setup, setup, nil)
        var error: UnsafeMutablePointer<GError>?
        let spawned = ([declaration.command] + declaration.arguments).withCStringArray { g_subprocess_launcher_spawnv(launcher, $0, &error) }
        guard let process = spawned else {
            throw GLibError.take(&error, "cannot start \(declaration.command)")
        }
        self.process = process
        pid = g_subprocess_get_identifier(process).flatMap { Int32(String(cString: $0)) } ?? 0
        self.onOutput = onOutput
        self.onExit = onExit
        read(g_subprocess_get_stdout_pipe(process), as: .stdout)
        read(g_subprocess_get_stderr_pipe(process), as: .stderr)
        waitForEnd()
    }

    /// Sends `signal` to the sidecar's whole process group (its own children too).
    func signalGroup(_ signal: Int32) {
        guard pid > 0 else { return }
        kill(-pid, signal)
    }

    /// Whether the process has ended (gone, or a zombie not reaped yet): read from /proc,
    /// not the main loop, so the app's stop can wait for it after the loop has ended.
    var hasEnded: Bool {
        guard pid > 0, let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return true }
        return stat[stat.index(after: close)...].trimmingPrefix(" ").first == "Z"
    }

    /// Reads `stream` chunk by chunk until its end; each read holds a reference to it.
    private func read(_ stream: UnsafeMutablePointer<GInputStream>?, as kind: Stream) {
        guard let stream else { return }
        g_object_ref(gptr(stream))
        AsyncCallback.call({ callback, data in
            g_input_stream_read_bytes_async(stream, 4096, G_PRIORITY_DEFAULT, nil, callback, data)
        }, finish: { [weak self] _, result in
            let bytes = g_input_stream_read_bytes_finish(stream, result, nil)
            defer { if let bytes { g_bytes_unref(bytes) } }
            var size: gsize = 0
            let data = bytes.flatMap { g_bytes_get_data($0, &size) }
            guard let self, let data, size > 0 else {
                g_object_unref(gptr(stream))
                return
            }
            self.onOutput?(kind, Array(UnsafeRawBufferPointer(start: data, count: Int(size))))
            self.read(stream, as: kind)
            g_object_unref(gptr(stream))  // the next read holds its own
        })
    }

    private func waitForEnd() {
        let waited = process
        g_object_ref(gptr(waited))
        AsyncCallback.call({ callback, data in
            g_subprocess_wait_async(waited, nil, callback, data)
        }, finish: { [weak self] _, result in
            defer { g_object_unref(gptr(waited)) }
            _ = g_subprocess_wait_finish(waited, result, nil)
            let exit: SidecarExit = g_subprocess_get_if_exited(waited) != 0
                ? .code(g_subprocess_get_exit_status(waited)) : .signal(g_subprocess_get_term_sig(waited))
            guard let self else { return }
            let onExit = self.onExit
            self.onExit = nil
            onExit?(exit)
        })
    }

    isolated deinit {
        g_object_unref(gptr(process))
    }
}

/// A pseudo-terminal whose slave side becomes a sidecar's controlling terminal: when the
/// sidecar, its session's leader, ends, the kernel sends SIGHUP to its terminal's
/// foreground process group — its own children — even when Vitrine is gone. The master is
/// opened close-on-exec, so no other program holds it, and closed with this object.
final class SidecarTerminal {
    let master: Int32
    let path: String

    init?() {
        var number: Int32 = 0
        let master = vitrine_open_pseudo_terminal(&number)
        guard master >= 0 else { return nil }
        self.master = master
        path = "/dev/pts/\(number)"
    }

    deinit { close(master) }
}
