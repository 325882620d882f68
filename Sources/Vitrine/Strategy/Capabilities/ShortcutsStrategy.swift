#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `shortcuts`: global shortcuts, heard while the app runs even when another program has
/// the keyboard. `{"action": "register", "accelerator": "Ctrl+Alt+K", "id"}` grabs the keys
/// (X11) or has the desktop portal bind them (Wayland, the user confirming); refused
/// elsewhere, or when the user declines, with the reason; a press reaches the registering window's
/// pages as a `shortcut` event `{id, accelerator}`. `{"action": "unregister", "id"}` lets
/// them go (answers whether it was registered). A window's shortcuts go when its page does
/// (another page commits). A kiosk refuses them: its keyboard is its page's alone.
public struct ShortcutsStrategy: ScriptMessageStrategy {
    public static let identifier = Capability.shortcuts.rawValue
    public static let capability: Capability? = .shortcuts

    public nonisolated init() {}

    public func handle(_ message: ScriptMessage, context: ScriptMessageContext) async throws -> JSONValue {
        let body = message.body
        let action = body["action"]?.stringValue
        guard let id = body["id"]?.stringValue, action == "unregister" || (action == "register" && body["accelerator"]?.stringValue != nil) else {
            throw ScriptMessageError.invalidBody(Self.identifier, expected: #"{"action": "register", "accelerator": "Ctrl+Alt+K", "id": string} or {"action": "unregister", "id": string}"#)
        }
        guard let desktop = context.host.desktop else { throw ScriptMessageError.noDesktop(.shortcuts) }
        if desktop.isKioskWindow { throw ScriptMessageError("shortcuts: a kiosk's keyboard is its page's alone") }
        if action == "unregister" { return .bool(desktop.unregisterShortcut(id: id)) }
        let accelerator = try Accelerator(body["accelerator"]!.stringValue!)
        try await desktop.registerShortcut(accelerator, id: id)
        return .string(accelerator.description)
    }
}
