import CWebKitGTK
import Vitrine

/// `[remote.vnc]`: `x11vnc` serving the kiosk's X display, or `wayvnc` its Wayland session
/// (cage), started with the kiosk and stopped with it (and sent SIGTERM by the kernel if the
/// kiosk dies some other way). A server that cannot start or that exits is reported on
/// standard error; the kiosk stays up. Once started, the sockets the server holds are
/// checked (`ListenerCheck`): one listening anywhere but the configured address and port is
/// stopped, and `onRefused` is told why (besides standard error).
@MainActor
final class RemoteViewServer {
    private var server: ChildProcess?
    private var watch: ListenerWatch?

    init(_ settings: RemoteViewSettings, onRefused: @escaping @MainActor (String) -> Void = { _ in }) {
        guard let display = gdk_display_get_default() else { return }
        let arguments: [String]
        if vitrine_display_is_x11(display) != 0, let name = gdk_display_get_name(display) {
            arguments = settings.x11vncArguments(display: String(cString: name))
        } else if let wayvnc = settings.wayvncArguments {
            arguments = wayvnc
        } else {
            printToStandardError("vitrine: remote view not started: wayvnc accepts a password only over TLS with keys of its own; listen on loopback without password-file")
            return
        }
        let program = arguments[0]
        do {
            server = try ChildProcess(arguments, endsWithParent: true, discardsOutput: true) { [weak self] status in
                guard let self, self.server != nil else { return }  // stopped on purpose
                self.server = nil
                printToStandardError("vitrine: remote view: \(program) ended with status \(status); no VNC view on \(settings.listen)")
            }
            printToStandardError("vitrine: remote view: \(program) on \(settings.listen)\(settings.viewOnly ? ", view-only" : "")")
            if let pid = server?.pid, let check = settings.listenerCheck(program: program) {
                watch = ListenerWatch(check, pid: pid) { [weak self] verdict in
                    guard let self else { return }
                    self.watch = nil
                    guard case .refused(let reason) = verdict else {
                        return printToStandardError("vitrine: remote view: \(program) listens on \(check.expected) only")
                    }
                    self.stop()
                    printToStandardError("vitrine: remote view stopped: \(reason)")
                    onRefused(reason)
                }
            }
        } catch {
            printToStandardError("vitrine: remote view: cannot start \(program) (is the \(program) package installed?): \(error)")
        }
    }

    /// Stops the server (SIGTERM); it does not outlive the kiosk.
    func stop() {
        watch = nil
        let running = server
        server = nil
        running?.terminate()
    }

    isolated deinit {
        server?.terminate()
    }
}
