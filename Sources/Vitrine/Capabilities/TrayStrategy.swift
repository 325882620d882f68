#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The app's icon in the desktop's tray (`tray` capability).
@MainActor
public protocol TrayService: KioskAware {
    /// Shows `tray` as the app's tray icon for the top document `owner` (nil: removes the
    /// icon `owner` set); the user's choices reach that document only, while it is shown.
    func setTray(_ tray: TrayIcon?, owner: FrameToken) throws(ScriptMessageError)
}

/// `tray`: the app's icon in the desktop's tray (a StatusNotifierItem). `{"action": "set",
/// "icon", "tooltip"?, "items"?}` shows or replaces it, `{"action": "clear"}` removes it.
/// Only a top document may set it, and it lasts as long as that document: the next document
/// of its view starts without. The user's choices reach that document only: `tray:activated`
/// `{id}` for a menu item, `tray:click` for the icon. A kiosk has no tray.
public struct TrayStrategy: TypedScriptMessageStrategy {
    public static let identifier = "tray"
    public static let capability: Capability? = .tray

    /// `icon`: a PNG or SVG file of the app's folder by its relative path, or an
    /// icon-theme name; `items`: a menu as `menu` takes it. `TrayIcon` checks them.
    public enum Request: ActionRequest {
        case set(icon: String, tooltip: String?, items: [JSONValue]?)
        case clear
        public static let actions = ["set", "clear"]
    }

    public nonisolated init() {}

    public func respond(to request: Request, context: ScriptMessageContext) async throws -> Bool {
        let tray: TrayIcon?
        switch request {
        case .set(let icon, let tooltip, let items):
            tray = try TrayIcon(json: ["icon": .string(icon), "tooltip": tooltip.map(JSONValue.string) ?? .null,
                                       "items": .array(items ?? [])])
        case .clear: tray = nil
        }
        let trays = try context.service(TrayService.self, for: .tray)
        if trays.isKioskWindow { throw ScriptMessageError("tray: a kiosk has no tray icon") }
        guard let caller = context.caller, caller.isMainFrame else {
            throw ScriptMessageError("tray: only the window's top document may set the tray icon, not a frame inside it")
        }
        try trays.setTray(tray, owner: caller.token)
        return true
    }
}
