#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The desktop's services the capability strategies use: the clipboard and the windows.
/// The GTK adapter implements them; a host without a desktop has none (`desktop` is nil)
/// and the strategies say so.
@MainActor
public protocol DesktopServices: AnyObject {
    /// The clipboard's text, or nil when it holds none.
    func clipboardText() async -> String?
    func setClipboardText(_ text: String)
    /// Puts a PNG image on the clipboard; throws when the bytes are not an image.
    func setClipboardImage(png: [UInt8]) throws
    /// Carries out a window command for the window whose page asked; answers its result.
    func perform(_ command: WindowCommand) throws -> JSONValue
    /// Shows a desktop notification; a click on it brings the window forward and tells
    /// its pages (`notification:clicked` with `{id}`).
    func notify(_ notification: DesktopNotification) throws
    /// Asks the user for files, a folder or a file to save: the paths, or nil when cancelled.
    func chooseFiles(_ request: FileDialogRequest) async throws -> [String]?
    /// Tells the user something and waits until they close it.
    func showMessage(title: String, message: String) async
    /// Whether the window is shown and has the keyboard focus: a clipboard read needs it,
    /// so that a page in a hidden or background window cannot read what the user copies.
    var isWindowFocusedAndVisible: Bool { get }
    /// Whether the window is a kiosk's (it stays fullscreen and shown).
    var isKioskWindow: Bool { get }
    /// Shows `menu` at `placement` for the top document `owner` (nil: removes the menu
    /// there); the user's choice reaches that document only, while it is shown.
    func setMenu(_ menu: AppMenu?, placement: MenuPlacement, owner: FrameToken) throws(ScriptMessageError)
    /// Shows the print dialog for the page of the top document `owner`: whether the user printed.
    func printPage(owner: FrameToken) async throws -> Bool
    /// The page of the top document `owner` as PDF, laid out by `settings`.
    func pagePDF(_ settings: PrintSettings, owner: FrameToken) async throws -> [UInt8]
    /// Grabs `accelerator` for this window's pages (`shortcuts` capability), or has the
    /// desktop bind it (which may ask the user first); throws why not.
    func registerShortcut(_ accelerator: Accelerator, id: String) async throws
    /// Lets this window's shortcut `id` go; whether it was registered.
    func unregisterShortcut(id: String) -> Bool
    /// Shows `tray` as the app's tray icon for the top document `owner` (nil: removes the
    /// icon `owner` set); the user's choices reach that document only, while it is shown.
    func setTray(_ tray: TrayIcon?, owner: FrameToken) throws(ScriptMessageError)
}

extension DesktopServices {
    /// Hosts without menus refuse.
    public func setMenu(_ menu: AppMenu?, placement: MenuPlacement, owner: FrameToken) throws(ScriptMessageError) {
        throw ScriptMessageError.noDesktop(.menu)
    }

    public func printPage(owner: FrameToken) async throws -> Bool { throw ScriptMessageError.noDesktop(.print) }
    public func pagePDF(_ settings: PrintSettings, owner: FrameToken) async throws -> [UInt8] { throw ScriptMessageError.noDesktop(.print) }

    /// A desktop without key grabs refuses them.
    public func registerShortcut(_ accelerator: Accelerator, id: String) async throws {
        throw ScriptMessageError("shortcuts: this desktop cannot grab keys")
    }

    public func unregisterShortcut(id: String) -> Bool { false }

    /// Hosts without a tray refuse.
    public func setTray(_ tray: TrayIcon?, owner: FrameToken) throws(ScriptMessageError) {
        throw ScriptMessageError.noDesktop(.tray)
    }
}

extension ContainerHost {
    /// The desktop's services, for hosts that have none.
    public var desktop: (any DesktopServices)? { nil }
}

/// Why a capability could not be used here.
extension ScriptMessageError {
    static func noDesktop(_ capability: Capability) -> ScriptMessageError {
        ScriptMessageError("\(capability.rawValue): this container has no desktop to do it")
    }
}
