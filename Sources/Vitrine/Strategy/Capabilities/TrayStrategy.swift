#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `tray`: the app's icon in the desktop's tray (a StatusNotifierItem). `{"action": "set",
/// "icon", "tooltip"?, "items"?}` shows or replaces it, `{"action": "clear"}` removes it.
/// Only a top document may set it, and it lasts as long as that document: the next document
/// of its view starts without. The user's choices reach that document only: `tray:activated`
/// `{id}` for a menu item, `tray:click` for the icon. A kiosk has no tray.
public struct TrayStrategy: ScriptMessageStrategy {
    public static let identifier = Capability.tray.rawValue
    public static let capability: Capability? = .tray

    public nonisolated init() {}

    public func handle(_ message: ScriptMessage, context: ScriptMessageContext) async throws -> JSONValue {
        let body = message.body
        let tray: TrayIcon?
        switch body["action"]?.stringValue {
        case "set": tray = try TrayIcon(json: body)
        case "clear": tray = nil
        default: throw ScriptMessageError.invalidBody(Self.identifier, expected: #"{"action": "set", "icon": string, "tooltip"?: string, "items"?: [...]} or {"action": "clear"}"#)
        }
        guard let desktop = context.host.desktop else { throw ScriptMessageError.noDesktop(.tray) }
        if desktop.isKioskWindow { throw ScriptMessageError("tray: a kiosk has no tray icon") }
        guard let caller = context.caller, caller.isMainFrame else {
            throw ScriptMessageError("tray: only the window's top document may set the tray icon, not a frame inside it")
        }
        try desktop.setTray(tray, owner: caller.token)
        return true
    }
}
