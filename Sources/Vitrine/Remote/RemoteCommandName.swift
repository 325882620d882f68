/// The remote commands, each declared once: its name (the D-Bus action's and the MQTT
/// topic's, `PREFIX/ID/cmd/NAME`), its argument, where it may come from, how large its
/// argument may be and its help. `RemoteCommand.parse` is the one check of an argument;
/// the session bus's actions, the MQTT topics and `vitrine ctl`'s subcommands and help are
/// all read from here.
public enum RemoteCommandName: String, CaseIterable, Sendable {
    case reload, home, next, navigate, screenshot, display, quit, config, support, alert
    case alertClear = "alert-clear"

    public var argument: RemoteCommandArgument {
        switch self {
        case .reload, .home, .next, .quit, .alertClear: .none
        case .alert: .alert
        case .navigate: .url
        case .screenshot: .pngFile
        case .display: .onOff
        case .config: .configuration
        case .support: .bundleFile
        }
    }

    /// Its name as a `vitrine ctl` action: `support-bundle` says what `support` makes.
    public var ctlName: String { self == .support ? "support-bundle" : rawValue }

    /// The transports that carry the command. `quit` only the session's own (the local
    /// user's); a whole configuration only MQTT, where the reply says whether it was kept.
    public var transports: Set<RemoteTransport> {
        switch self {
        case .quit: [.sessionBus]
        case .config: [.mqtt]
        default: [.sessionBus, .mqtt]
        }
    }

    /// The largest argument accepted, in bytes.
    public var argumentLimit: Int {
        switch self {
        case .config: 256 * 1024
        case .navigate, .alert: 8 * 1024
        default: 1024
        }
    }

    /// One line of help: what the command does.
    public var help: String {
        switch self {
        case .reload: "reload the page shown (every display's window)"
        case .home: "go back to the start page (every display's window)"
        case .next: "show the next page of [[schedule.playlist]] now"
        case .navigate: "open URL through the navigation chain (a kiosk's allow-list still applies)"
        case .screenshot: "write a PNG of the window to FILE.png (over MQTT: published on the screenshot topic)"
        case .display: "blank the screen (off) or bring it back (on) until the schedule's next change"
        case .quit: "end the program as SIGTERM does (a kiosk ignores close requests)"
        case .config: "check, apply and keep, or roll back, a whole TOML configuration"
        case .support: "make a support bundle (.tar.gz: configuration without secrets, last events, versions, renderer, screenshot, metrics, journal) in FILE.tar.gz, which must not exist yet (over MQTT: published on the support topic, or uploaded to [remote] support-upload)"
        case .alert: "show URL on every display, screen on, over the schedule, for SECONDS (at most a day); then the schedule comes back"
        case .alertClear: "end the alert shown now: the schedule comes back"
        }
    }

    /// The commands a transport carries, in declaration order.
    public static func carried(by transport: RemoteTransport) -> [RemoteCommandName] {
        allCases.filter { $0.transports.contains(transport) }
    }

    /// The command called `name` on `transport`; nil for any other name.
    public init?(_ name: String, on transport: RemoteTransport) {
        guard let command = RemoteCommandName(rawValue: name), command.transports.contains(transport) else { return nil }
        self = command
    }

    /// The session bus's command whose `ctlName` is `name`.
    public init?(ctlName name: String) {
        guard let command = RemoteCommandName.carried(by: .sessionBus).first(where: { $0.ctlName == name }) else { return nil }
        self = command
    }
}
