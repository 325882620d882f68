import CWebKitGTK
import Vitrine

/// `[remote.vnc]` under X11: `x11vnc` serving the kiosk's display, started with the kiosk
/// and stopped with it (and sent SIGTERM by the kernel if the kiosk dies some other way).
/// A server that cannot start or that exits is reported on standard error; the kiosk stays up.
/// Under Wayland the cage session script starts `wayvnc` instead: nothing is started here.
@MainActor
final class RemoteViewServer {
    private var server: ChildProcess?

    /// Starts the server for `settings` on GDK's display; nil when the display is not X11.
    init?(_ settings: RemoteViewSettings) {
        guard let display = gdk_display_get_default(), vitrine_display_is_x11(display) != 0,
              let name = gdk_display_get_name(display) else {
            printToStandardError("vitrine: remote view: not an X11 display; under Wayland the session starts wayvnc")
            return nil
        }
        let arguments = settings.x11vncArguments(display: String(cString: name))
        do {
            server = try ChildProcess(arguments, endsWithParent: true, discardsOutput: true) { [weak self] status in
                guard let self, self.server != nil else { return }  // stopped on purpose
                self.server = nil
                printToStandardError("vitrine: remote view: x11vnc ended with status \(status); no VNC view on \(settings.listen)")
            }
            printToStandardError("vitrine: remote view: x11vnc serving \(String(cString: name)) on \(settings.listen)\(settings.viewOnly ? ", view-only" : "")")
        } catch {
            printToStandardError("vitrine: remote view: cannot start x11vnc (is the x11vnc package installed?): \(error)")
        }
    }

    /// Stops the server (SIGTERM); it does not outlive the kiosk.
    func stop() {
        let running = server
        server = nil
        running?.terminate()
    }

    isolated deinit {
        server?.terminate()
    }
}
