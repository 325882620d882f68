#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where a menu shows.
public enum MenuPlacement: String, Sendable, Equatable {
    /// The window's menu bar (GtkMenuBar).
    case menuBar
    /// The page's context menu (right click), in place of WebKit's items.
    case context
}

/// `menu`: `{"action": "set", "items": [...]}` (the window's menu bar), `{"action":
/// "setContext", "items": [...]}` (the page's context menu), `{"action": "clear"}` (both).
/// Only a top document may set them, and they last as long as it: the next document of the
/// view starts without. A kiosk never shows menus. The user's choice reaches the page that
/// set the menu as `menu:activated` `{id, checked?}`.
public struct MenuStrategy: ScriptMessageStrategy {
    public static let identifier = Capability.menu.rawValue
    public static let capability: Capability? = .menu

    public nonisolated init() {}

    public func handle(_ message: ScriptMessage, context: ScriptMessageContext) async throws -> JSONValue {
        let body = message.body
        let placement: MenuPlacement?
        switch body["action"]?.stringValue {
        case "set": placement = .menuBar
        case "setContext": placement = .context
        case "clear": placement = nil
        default: throw ScriptMessageError.invalidBody(Self.identifier, expected: #"{"action": "set" | "setContext" | "clear", "items"?: [...]}"#)
        }
        let menu = try placement.map { _ throws(ScriptMessageError) in try AppMenu(json: body["items"] ?? .null) }
        guard let desktop = context.host.desktop else { throw ScriptMessageError.noDesktop(.menu) }
        if desktop.isKioskWindow { throw ScriptMessageError("menu: a kiosk never shows menus") }
        guard let caller = context.caller, caller.isMainFrame else {
            throw ScriptMessageError("menu: only the window's top document may set its menus, not a frame inside it")
        }
        if let placement, let menu {
            try desktop.setMenu(menu, placement: placement, owner: caller.token)
        } else {
            try desktop.setMenu(nil, placement: .menuBar, owner: caller.token)
            try desktop.setMenu(nil, placement: .context, owner: caller.token)
        }
        return true
    }
}
