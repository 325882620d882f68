/// What systemd's notify protocol gives a service in its environment: the socket to send
/// to (`NOTIFY_SOCKET`; a leading `@` is Linux's abstract namespace) and how often it
/// expects a sign of life (`WATCHDOG_USEC`, meant for `WATCHDOG_PID` only when that is set).
///
/// The variables are the service's own: a child process that inherited them (GLib's
/// session `dbus-daemon`, WebKit's processes) would speak for it — `READY=1` before the
/// window exists, pings from a loop that is not Vitrine's — so they are cleared from the
/// environment once read (`variables`).
public struct ServiceManagerEnvironment: Sendable, Equatable {
    /// The variables read, cleared from the environment before any child process starts.
    public static let variables = ["NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID"]

    /// The socket's path; for an abstract name, the name after its `@`.
    public let socketPath: String
    /// Whether `socketPath` is an abstract name (no file).
    public let isAbstract: Bool
    /// How often to send `WATCHDOG=1`: half the watchdog's timeout, as systemd advises;
    /// nil: no watchdog for this process.
    public let pingInterval: Duration?

    /// Reads `environment`; nil when there is no usable `NOTIFY_SOCKET` (not run by systemd).
    public init?(_ environment: [String: String], processID: Int32) {
        guard let socket = environment["NOTIFY_SOCKET"], socket.count > 1 else { return nil }
        if socket.hasPrefix("@") {
            socketPath = String(socket.dropFirst())
            isAbstract = true
        } else {
            guard socket.hasPrefix("/") else { return nil }
            socketPath = socket
            isAbstract = false
        }
        // sockaddr_un's sun_path holds 108 bytes, an abstract name's leading NUL included.
        guard socketPath.utf8.count <= 107 else { return nil }
        let forThisProcess = environment["WATCHDOG_PID"].map { Int32($0) == processID } ?? true
        if forThisProcess, let text = environment["WATCHDOG_USEC"], let microseconds = UInt64(text), microseconds > 0 {
            pingInterval = .microseconds(Int64(clamping: microseconds / 2))
        } else {
            pingInterval = nil
        }
    }
}
