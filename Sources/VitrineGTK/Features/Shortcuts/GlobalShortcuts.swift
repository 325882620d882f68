import CWebKitGTK
import Vitrine

/// What holds the app's global shortcuts (`shortcuts` capability) on this display: key
/// grabs under X11 (`X11Shortcuts`), the desktop portal's GlobalShortcuts under Wayland
/// (`PortalShortcuts`). Both keep a `ShortcutBook`, which decides who holds which keys, and
/// send a press to the window whose page registered it as a `shortcut` event.
@MainActor
protocol GlobalShortcutKeys: AnyObject {
    /// Holds `accelerator` under `id` for `container`'s pages; throws why not (taken, no
    /// such key, or the user declined).
    func register(_ accelerator: Accelerator, id: String, for container: WebContainer) async throws(ScriptMessageError)
    /// Lets `container`'s shortcut `id` go; whether it was registered.
    func unregister(id: String, for container: WebContainer) -> Bool
    /// Lets every shortcut of `container` go (its document went, or the window).
    func release(owner container: WebContainer)
}

/// The key of a window in the shortcuts' book.
@MainActor
enum GlobalShortcuts {
    static func owner(_ container: WebContainer) -> Int { ObjectIdentifier(container).hashValue }
}
