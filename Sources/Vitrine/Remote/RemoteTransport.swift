/// Where a remote command comes from.
public enum RemoteTransport: String, Sendable, CaseIterable {
    /// The session bus: GActions of the app's id (`vitrine ctl`, `gapplication`, `gdbus`),
    /// reachable only by the local session.
    case sessionBus = "session bus"
    /// A fleet's MQTT broker: `PREFIX/ID/cmd/NAME`, answered on `reply/NAME`.
    case mqtt = "MQTT"
}
