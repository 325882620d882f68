/// One message of systemd's notify protocol (`sd_notify(3)`): newline-separated
/// `KEY=VALUE` assignments in one datagram.
public enum ServiceNotification: Sendable, Equatable {
    /// Start-up is complete (the first page, or the error page, is on screen).
    case ready(status: String)
    /// A sign of life from the main loop.
    case watchdog
    /// What the service is doing, for `systemctl status`.
    case status(String)
    /// The service is shutting down.
    case stopping

    /// The datagram's text.
    public var datagram: String {
        switch self {
        case .ready(let status): "READY=1\nSTATUS=\(Self.oneLine(status))"
        case .watchdog: "WATCHDOG=1"
        case .status(let status): "STATUS=\(Self.oneLine(status))"
        case .stopping: "STOPPING=1"
        }
    }

    /// A status is one assignment: a line break in a URL would start another (`READY=1`…).
    private static func oneLine(_ text: String) -> String {
        String(text.map { $0.isNewline ? " " : $0 }.prefix(400))
    }
}
