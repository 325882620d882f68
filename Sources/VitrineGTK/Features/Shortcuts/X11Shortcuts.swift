import CWebKitGTK
import Vitrine

/// Global shortcuts (`shortcuts` capability) under X11: each accelerator is a passive key
/// grab on the root window (`XGrabKey`, with and without Caps Lock and Num Lock, so they do
/// not stop it), and a GDK event filter hears the presses, which go to the window whose page
/// registered the keys as a `shortcut` event. A grab another program holds is refused (the X
/// server's BadAccess, caught with GDK's error trap).
///
/// One per app (`AppServices.shortcuts()`); it owns the filter (removed in deinit,
/// with every grab) and holds its windows weakly: a window's shortcuts go with its document
/// (`release(owner:)` at the next commit and at tear-down).
@MainActor
final class X11Shortcuts: GlobalShortcutKeys {
    private let gdkDisplay: OpaquePointer
    private let display: OpaquePointer
    private let root: Window
    private var book = ShortcutBook()
    private var owners: [Int: Weak] = [:]
    /// The grabbed key and X modifiers of each registered accelerator.
    private var grabs: [Accelerator: (keycode: KeyCode, modifiers: UInt32)] = [:]
    /// The filter's user data (a weak reference to this object), retained until deinit.
    private var filterContext: Unmanaged<SignalContext>?

    private struct Weak { weak var container: WebContainer? }

    /// Caps Lock and Num Lock (`Mod2`): a grab is made with each combination of them.
    private static let lockModifiers: [UInt32] = [0, UInt32(LockMask), UInt32(Mod2Mask), UInt32(LockMask | Mod2Mask)]

    init(gdkDisplay: OpaquePointer) {
        self.gdkDisplay = gdkDisplay
        display = gdk_x11_display_get_xdisplay(gdkDisplay)
        root = gdk_x11_get_default_root_xwindow()
        let context = Unmanaged.passRetained(SignalContext(owner: self))
        filterContext = context
        gdk_window_add_filter(nil, onXEvent, context.toOpaque())
    }

    isolated deinit {
        if let filterContext {
            gdk_window_remove_filter(nil, onXEvent, filterContext.toOpaque())
            filterContext.release()
        }
        for grab in grabs.values { ungrab(grab) }
    }

    func register(_ accelerator: Accelerator, id: String, for container: WebContainer) throws(ScriptMessageError) {
        var keyval: guint = 0
        var gdkModifiers = GdkModifierType(rawValue: 0)
        gtk_accelerator_parse(accelerator.gtkAccelerator, &keyval, &gdkModifiers)
        let keycode = XKeysymToKeycode(display, KeySym(keyval))
        guard keyval != 0, keycode != 0 else { throw ScriptMessageError("shortcuts: \(accelerator): this keyboard has no such key") }
        let owner = GlobalShortcuts.owner(container)
        let previous = book.accelerator(id: id, owner: owner)
        let replaced = try book.register(accelerator, id: id, owner: owner)
        owners[owner] = Weak(container: container)
        if grabs[accelerator] == nil {
            let grab = (keycode: keycode, modifiers: Self.xModifiers(gdkModifiers))
            guard self.grab(grab) else {
                // The replaced keys' grab is still held: the id keeps them.
                book.undoRegistration(of: accelerator, id: id, owner: owner, previous: previous)
                throw ScriptMessageError("shortcuts: \(accelerator) is taken by another program")
            }
            grabs[accelerator] = grab
        }
        if let replaced { release(replaced) }
    }

    func unregister(id: String, for container: WebContainer) -> Bool {
        guard let accelerator = book.unregister(id: id, owner: GlobalShortcuts.owner(container)) else { return false }
        release(accelerator)
        return true
    }

    /// Lets every shortcut of `container` go (its document went, or the window).
    func release(owner container: WebContainer) {
        book.release(owner: GlobalShortcuts.owner(container)).forEach(release)
        owners[GlobalShortcuts.owner(container)] = nil
    }

    private func release(_ accelerator: Accelerator) {
        guard book.entry(for: accelerator) == nil, let grab = grabs.removeValue(forKey: accelerator) else { return }
        ungrab(grab)
    }

    /// Grabs the key with each lock combination; false when the X server refused (another
    /// client holds it), after undoing what was grabbed.
    private func grab(_ grab: (keycode: KeyCode, modifiers: UInt32)) -> Bool {
        gdk_x11_display_error_trap_push(gdkDisplay)
        for lock in Self.lockModifiers {
            XGrabKey(display, Int32(grab.keycode), grab.modifiers | lock, root, 1, GrabModeAsync, GrabModeAsync)
        }
        guard gdk_x11_display_error_trap_pop(gdkDisplay) == 0 else {
            ungrab(grab)
            return false
        }
        return true
    }

    private func ungrab(_ grab: (keycode: KeyCode, modifiers: UInt32)) {
        gdk_x11_display_error_trap_push(gdkDisplay)
        for lock in Self.lockModifiers { XUngrabKey(display, Int32(grab.keycode), grab.modifiers | lock, root) }
        gdk_x11_display_error_trap_pop_ignored(gdkDisplay)
    }

    private static func xModifiers(_ modifiers: GdkModifierType) -> UInt32 {
        var x: UInt32 = 0
        if modifiers.rawValue & GDK_CONTROL_MASK.rawValue != 0 { x |= UInt32(ControlMask) }
        if modifiers.rawValue & GDK_SHIFT_MASK.rawValue != 0 { x |= UInt32(ShiftMask) }
        if modifiers.rawValue & GDK_MOD1_MASK.rawValue != 0 { x |= UInt32(Mod1Mask) }
        if modifiers.rawValue & (GDK_SUPER_MASK.rawValue | GDK_MOD4_MASK.rawValue) != 0 { x |= UInt32(Mod4Mask) }
        return x
    }

    /// A key press on the root window: handled when it is one of the grabs.
    fileprivate func pressed(keycode: UInt32, state: UInt32) -> Bool {
        let modifiers = state & ~UInt32(LockMask | Mod2Mask) & UInt32(ControlMask | ShiftMask | Mod1Mask | Mod4Mask)
        guard let accelerator = grabs.first(where: { UInt32($0.value.keycode) == keycode && $0.value.modifiers == modifiers })?.key,
              let entry = book.entry(for: accelerator), let container = owners[entry.owner]?.container, !container.isTornDown
        else { return false }
        container.feature(ShortcutFeature.self)?.pressed(entry)
        return true
    }
}

/// GDK's filter of every X event: `GdkFilterReturn (*)(GdkXEvent*, GdkEvent*, gpointer)`.
/// Runs on the main thread, inside GDK's event dispatch.
private let onXEvent: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<GdkEvent>?, gpointer?) -> GdkFilterReturn = {
    xevent, _, data in
    guard let xevent else { return GDK_FILTER_CONTINUE }
    let event = xevent.assumingMemoryBound(to: XEvent.self)
    guard event.pointee.type == KeyPress else { return GDK_FILTER_CONTINUE }
    let keycode = event.pointee.xkey.keycode, state = event.pointee.xkey.state
    let shortcuts = SignalContext.owner(data, as: X11Shortcuts.self)
    let handled = MainActor.assumeIsolated { shortcuts?.pressed(keycode: keycode, state: state) ?? false }
    return handled ? GDK_FILTER_REMOVE : GDK_FILTER_CONTINUE
}
