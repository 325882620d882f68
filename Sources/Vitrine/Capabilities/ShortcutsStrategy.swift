#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The desktop's global shortcuts for the window (`shortcuts` capability).
@MainActor
public protocol ShortcutService: KioskAware {
    /// Grabs `accelerator` for this window's pages, or has the desktop bind it (which may
    /// ask the user first); throws why not.
    func registerShortcut(_ accelerator: Accelerator, id: String) async throws
    /// Lets this window's shortcut `id` go; whether it was registered.
    func unregisterShortcut(id: String) -> Bool
}

/// `shortcuts`: global shortcuts, heard while the app runs even when another program has
/// the keyboard. `{"action": "register", "accelerator": "Ctrl+Alt+K", "id"}` grabs the keys
/// (X11) or has the desktop portal bind them (Wayland, the user confirming); refused
/// elsewhere, or when the user declines, with the reason; a press reaches the registering window's
/// pages as a `shortcut` event `{id, accelerator}`. `{"action": "unregister", "id"}` lets
/// them go (answers whether it was registered). A window's shortcuts go when its page does
/// (another page commits). A kiosk refuses them: its keyboard is its page's alone.
public struct ShortcutsStrategy: TypedScriptMessageStrategy {
    public static let identifier = "shortcuts"
    public static let capability: Capability? = .shortcuts

    public enum Request: ActionRequest {
        case register(accelerator: String, id: String)
        case unregister(id: String)
        public static let actions = ["register", "unregister"]
    }

    public nonisolated init() {}

    public func respond(to request: Request, context: ScriptMessageContext) async throws -> JSONValue {
        // A window whose desktop cannot grab keys has no shortcut service: it says so.
        let shortcuts = context.host.service(ShortcutService.self)
        let window: (any KioskAware)? = shortcuts ?? context.host.service(WindowService.self)
        guard let window else { throw ScriptMessageError.noDesktop(.shortcuts) }
        if window.isKioskWindow { throw ScriptMessageError("shortcuts: a kiosk's keyboard is its page's alone") }
        guard let shortcuts else {
            if case .unregister = request { return false }
            throw ScriptMessageError("shortcuts: this desktop cannot grab keys")
        }
        switch request {
        case .unregister(let id):
            return .bool(shortcuts.unregisterShortcut(id: id))
        case .register(let text, let id):
            let accelerator = try Accelerator(text)
            try await shortcuts.registerShortcut(accelerator, id: id)
            return .string(accelerator.description)
        }
    }
}
