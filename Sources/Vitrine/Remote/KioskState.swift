/// What a kiosk publishes, retained, on its `state` topic; its broker's last will is
/// `KioskState.offline`.
public struct KioskState: Sendable, Equatable {
    public var url = ""
    public var title = ""
    /// "on" or "off".
    public var display = "on"
    public var version: String
    /// Web processes lost (crashed or killed) since the program started.
    public var crashes = 0
    /// The last load error, "" when none.
    public var lastError = ""
    /// The fleet groups it takes commands for (`vitrine fleet` picks a group's kiosks by them).
    public var groups: [String]
    /// The alert page shown over the schedule, "" when none, and until when (Unix seconds).
    public var alert = ""
    public var alertUntil: Double?

    public init(version: String, groups: [String] = []) {
        self.version = version
        self.groups = groups
    }

    /// The last will: all a fleet needs to know of a kiosk that is gone.
    public static let offline: JSONValue = .object(["online": .bool(false)])

    /// The published form: its texts redacted (`Redaction.text`), as the state is retained
    /// on the broker for every subscriber (a dashboard, Home Assistant) to read.
    public var json: JSONValue {
        let clean = Redaction.text
        return .object([
            "online": .bool(true), "url": .string(clean(url)), "title": .string(clean(title)), "display": .string(display),
            "version": .string(version), "crashes": .number(Double(crashes)), "lastError": .string(clean(lastError)),
            "groups": .array(groups.map(JSONValue.string)),
            "alert": alert.isEmpty ? .null : .object(["url": .string(clean(alert)), "until": .number(alertUntil ?? 0)]),
        ])
    }

    /// Follows the events log: loads, load errors and web-process losses. With several
    /// windows (`[[displays]]`) every window's errors and losses count, but the URL is the
    /// first display's alone (`ownsURL`): one kiosk, one address.
    public mutating func observe(_ event: ContainerEvent, ownsURL: Bool = true) {
        switch event {
        case let .load(.finished, url, _, _, _):
            if ownsURL { self.url = url }
        case let .load(.failed, url, error, _, _), let .load(.tlsError, url, error, _, _):
            lastError = "\(error ?? "load failed"): \(url)"
        case .native(action: .webProcessTerminated, _):
            crashes += 1
        default:
            break
        }
    }
}
