#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `app`: the app's place on the desktop. `{"action": "setAutostart", "on": bool}` writes
/// or removes its XDG autostart entry (`AutostartEntry`) and answers whether it is on;
/// `{"action": "autostart"}` answers whether it is on. A kiosk refuses both: how a kiosk
/// starts is its session's business (`vitrine-kiosk-session`), not its page's. Deep links
/// reach only pages granted `app` too (`deep-link` events).
public struct AppStrategy: ScriptMessageStrategy {
    public static let identifier = Capability.app.rawValue
    public static let capability: Capability? = .app

    private let entry: DesktopEntry
    private let autostart: AutostartEntry

    /// For `configuration`'s app; `configHome` is where its autostart folder is (the user's by default).
    public nonisolated init(configuration: Configuration, configHome: URL = AutostartEntry.configHome) {
        entry = DesktopEntry(configuration, command: configuration.preferences.launchCommand ?? [DesktopEntry.runningProgram])
        autostart = AutostartEntry(applicationID: configuration.applicationID, configHome: configHome)
    }

    public func handle(_ message: ScriptMessage, context: ScriptMessageContext) async throws -> JSONValue {
        let body = message.body
        let action = body["action"]?.stringValue
        guard action == "autostart" || (action == "setAutostart" && (body["on"] == .bool(true) || body["on"] == .bool(false))) else {
            throw ScriptMessageError.invalidBody(Self.identifier, expected: #"{"action": "setAutostart", "on": true | false} or {"action": "autostart"}"#)
        }
        guard let desktop = context.host.desktop else { throw ScriptMessageError.noDesktop(.app) }
        if desktop.isKioskWindow {
            throw ScriptMessageError("app: \(action!): a kiosk's start is its session's (vitrine-kiosk-session), not its page's")
        }
        if action == "setAutostart" {
            if body["on"] == .bool(true) { try autostart.enable(entry) } else { try autostart.disable() }
        }
        return .bool(autostart.isEnabled)
    }
}
