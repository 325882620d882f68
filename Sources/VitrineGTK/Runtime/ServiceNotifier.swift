import CWebKitGTK
#if canImport(Glibc)
import Glibc
#endif
import Vitrine

/// Speaks systemd's notify protocol for a kiosk unit with `Type=notify` and `WatchdogSec=`,
/// without libsystemd: one datagram per message to `$NOTIFY_SOCKET`.
///
/// `READY=1` once the first page (or the error page) is shown, `STATUS=` as the page
/// changes (`ServiceReadiness` decides, from the containers' events), `WATCHDOG=1` from a
/// GLib timeout on the main loop — a main loop that blocks stops the pings and systemd
/// restarts the unit — and `STOPPING=1` at exit. The timeout is this object's: removed in
/// `stop()` and `deinit`. A lost datagram is not retried: systemd tolerates missed pings
/// within the watchdog's timeout.
@MainActor
public final class ServiceNotifier: EventSink {
    private let environment: ServiceManagerEnvironment
    private let socket: Int32
    private var readiness = ServiceReadiness()
    private var timer: guint = 0

    /// Reads the service manager's variables and clears them from the environment, so no
    /// child process inherits them; nil when not run as a notify service. Call first thing,
    /// before anything starts a child (GTK's initialisation may start the accessibility bus).
    public nonisolated static func takeEnvironment() -> ServiceManagerEnvironment? {
        var values: [String: String] = [:]
        for name in ServiceManagerEnvironment.variables {
            if let value = g_getenv(name) { values[name] = String(cString: value) }
            g_unsetenv(name)
        }
        return ServiceManagerEnvironment(values, processID: getpid())
    }

    /// Nil when no socket can be made (then nothing is sent).
    public init?(_ environment: ServiceManagerEnvironment) {
        let socket = Glibc.socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard socket >= 0 else { return nil }
        self.environment = environment
        self.socket = socket
    }

    isolated deinit {
        stopTimer()
        close(socket)
    }

    public func record(_ event: ContainerEvent) {
        for notification in readiness.record(event) { send(notification) }
    }

    /// Sends `WATCHDOG=1` every half watchdog timeout from now on, if systemd watches this
    /// process.
    public func startWatchdog() {
        guard timer == 0, let interval = environment.pingInterval else { return }
        send(.watchdog)
        let milliseconds = max(1, guint(min(interval.inSeconds * 1000, Double(UInt32.max / 2))))
        let context = Unmanaged.passRetained(SignalContext(owner: self)).toOpaque()
        timer = g_timeout_add_full(G_PRIORITY_DEFAULT, milliseconds, { data in
            onMainLoop(data) { data in
                guard let owner = SignalContext.owner(data, as: ServiceNotifier.self) else { return gboolean(0) }  // G_SOURCE_REMOVE
                owner.send(.watchdog)
                return gboolean(1)  // G_SOURCE_CONTINUE
            }
        }, context, { data in
            guard let data else { return }
            Unmanaged<SignalContext>.fromOpaque(data).release()
        })
    }

    /// The program is ending: no more pings, and `STOPPING=1`.
    public func stop() {
        stopTimer()
        send(.stopping)
    }

    private func stopTimer() {
        if timer != 0 { g_source_remove(timer) }
        timer = 0
    }

    func send(_ notification: ServiceNotification) {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let path = Array(environment.socketPath.utf8)
        // An abstract name starts with a NUL byte and is exactly as long as given.
        let offset = environment.isAbstract ? 1 : 0
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in path.enumerated() { buffer[offset + index] = byte }
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + offset + path.count + (environment.isAbstract ? 0 : 1))
        let datagram = Array(notification.datagram.utf8)
        _ = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                datagram.withUnsafeBytes { bytes in
                    sendto(socket, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL), address, length)
                }
            }
        }
    }
}
