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
public struct AppStrategy: TypedScriptMessageStrategy {
    public static let identifier = "app"
    public static let capability: Capability? = .app

    public enum Request: ActionRequest {
        case setAutostart(on: Bool)
        case autostart
        public static let actions = ["setAutostart", "autostart"]
    }

    private let entry: DesktopEntry
    private let autostart: AutostartEntry

    /// For `configuration`'s app; `configHome` is where its autostart folder is (the user's by default).
    public nonisolated init(configuration: Configuration, configHome: URL = AutostartEntry.configHome) {
        entry = DesktopEntry(configuration, command: configuration.preferences.launchCommand ?? [DesktopEntry.runningProgram])
        autostart = AutostartEntry(applicationID: configuration.applicationID, configHome: configHome)
    }

    public func respond(to request: Request, context: ScriptMessageContext) async throws -> Bool {
        // The window's kind decides, so a host without a window has no desktop for this.
        if try context.service(WindowService.self, for: .app).isKioskWindow {
            let action = if case .autostart = request { "autostart" } else { "setAutostart" }
            throw ScriptMessageError("app: \(action): a kiosk's start is its session's (vitrine-kiosk-session), not its page's")
        }
        if case .setAutostart(let on) = request {
            if on { try autostart.enable(entry) } else { try autostart.disable() }
        }
        return autostart.isEnabled
    }
}
