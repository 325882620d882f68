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

/// The process's global shortcuts: one holder, made at the first registration.
@MainActor
enum GlobalShortcuts {
    private(set) static var current: (any GlobalShortcutKeys)?

    /// The process's shortcuts, or why there are none here.
    static func shared() throws(ScriptMessageError) -> any GlobalShortcutKeys {
        if let current { return current }
        guard let display = gdk_display_get_default() else {
            throw ScriptMessageError("shortcuts: there is no display")
        }
        let shortcuts: any GlobalShortcutKeys = vitrine_display_is_x11(display) != 0
            ? X11Shortcuts(gdkDisplay: display)
            : try PortalShortcuts()
        current = shortcuts
        return shortcuts
    }

    /// The key of `container` in the book.
    static func owner(_ container: WebContainer) -> Int { ObjectIdentifier(container).hashValue }
}

extension WebContainer {
    /// A global shortcut its page registered was pressed (either holder): logged, and sent
    /// to the page as a `shortcut` event.
    func shortcutPressed(_ entry: ShortcutBook.Entry) {
        record(.native(action: .shortcut, detail: "\(entry.id) \(entry.accelerator)"))
        emit("shortcut", ["id": .string(entry.id), "accelerator": .string(entry.accelerator.description)], grantedTo: .shortcuts)
    }
}
