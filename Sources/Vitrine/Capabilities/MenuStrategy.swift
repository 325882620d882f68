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

/// The window's menus (`menu` capability).
@MainActor
public protocol MenuService: KioskAware {
    /// Shows `menu` at `placement` for the top document `owner` (nil: removes the menu
    /// there); the user's choice reaches that document only, while it is shown.
    func setMenu(_ menu: AppMenu?, placement: MenuPlacement, owner: FrameToken) throws(ScriptMessageError)
}

/// `menu`: `{"action": "set", "items": [...]}` (the window's menu bar), `{"action":
/// "setContext", "items": [...]}` (the page's context menu), `{"action": "clear"}` (both).
/// Only a top document may set them, and they last as long as it: the next document of the
/// view starts without. A kiosk never shows menus. The user's choice reaches the page that
/// set the menu as `menu:activated` `{id, checked?}`.
public struct MenuStrategy: TypedScriptMessageStrategy {
    public static let identifier = "menu"
    public static let capability: Capability? = .menu

    /// The items are checked by `AppMenu(json:)`, which names the item at fault.
    public enum Request: ActionRequest {
        case set(items: [JSONValue])
        case setContext(items: [JSONValue])
        case clear
        public static let actions = ["set", "setContext", "clear"]
    }

    public nonisolated init() {}

    public func respond(to request: Request, context: ScriptMessageContext) async throws -> Bool {
        let shown: (placement: MenuPlacement, menu: AppMenu)?
        switch request {
        case .set(let items): shown = (.menuBar, try AppMenu(json: .array(items)))
        case .setContext(let items): shown = (.context, try AppMenu(json: .array(items)))
        case .clear: shown = nil
        }
        let menus = try context.service(MenuService.self, for: .menu)
        if menus.isKioskWindow { throw ScriptMessageError("menu: a kiosk never shows menus") }
        guard let caller = context.caller, caller.isMainFrame else {
            throw ScriptMessageError("menu: only the window's top document may set its menus, not a frame inside it")
        }
        if let shown {
            try menus.setMenu(shown.menu, placement: shown.placement, owner: caller.token)
        } else {
            try menus.setMenu(nil, placement: .menuBar, owner: caller.token)
            try menus.setMenu(nil, placement: .context, owner: caller.token)
        }
        return true
    }
}
