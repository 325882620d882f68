import CWebKitGTK
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

/// A kiosk's behaviour around its window: lockdown (no context menu, no zoom or history
/// shortcuts, no back/forward mouse buttons), a hidden pointer, no screen blanking, and
/// the idle reset to the start page.
///
/// A feature of a kiosk's window, released with it: its signal connections (on each pane's
/// view) go with `signals`, the idle timer is cancelled, the idle inhibitor released.
@MainActor
final class KioskGuard: WindowFeature {
    private weak var container: WebContainer?
    private let options: KioskOptions
    private let signals = SignalConnections()
    private var lastInput = ContinuousClock.now
    private var idleTimer: Task<Void, Never>?
    private var screenBlankingInhibitor: IdleInhibitor?

    init(container: WebContainer, options: KioskOptions) {
        self.container = container
        self.options = options
        for pane in container.stage.panes { watch(pane) }
        if let idle = options.idleReset { startIdleTimer(idle) }
    }

    /// Puts `pane`'s view under the guard (every pane, and a preloaded one as it is made).
    func watch(_ pane: WebPane) {
        let view = pane.widget
        gtk_widget_add_events(view, gint(GDK_KEY_PRESS_MASK.rawValue | GDK_BUTTON_PRESS_MASK.rawValue
            | GDK_POINTER_MOTION_MASK.rawValue | GDK_SCROLL_MASK.rawValue | GDK_TOUCH_MASK.rawValue))
        signals.connect(gptr(view), "event", context: SignalContext(owner: self), handler: gCallback(onInputEvent))
        if options.lockdown {
            signals.connect(gptr(view), "context-menu", context: SignalContext(owner: self), handler: gCallback(onContextMenu))
            // No drops: a file dropped on the page would reach it without any chooser.
            gtk_drag_dest_unset(view)
        }
    }

    /// Lets go of a released pane's view (its connections held a reference to it).
    func forget(_ pane: WebPane) {
        signals.disconnect(from: gptr(pane.widget))
    }

    /// After the window is shown: the pointer and the screen saver need a realized window.
    func shown() {
        guard let container else { return }
        if options.hidesCursor, let gdkWindow = gtk_widget_get_window(container.window) {
            let cursor = gdk_cursor_new_for_display(gdk_window_get_display(gdkWindow), GDK_BLANK_CURSOR)
            gdk_window_set_cursor(gdkWindow, cursor)
            if let cursor { g_object_unref(gptr(cursor)) }
            container.record(.native(action: .cursorHidden, detail: ""))
        }
        if options.inhibitsScreenBlanking { inhibitScreenBlanking() }
    }

    /// Keeps the screen on through the desktop's idle inhibitor, for as long as the guard lives.
    private func inhibitScreenBlanking() {
        guard let container else { return }
        screenBlankingInhibitor = IdleInhibitor(for: container, reason: "Kiosk")
    }

    // MARK: Input

    /// Activity outside the views (an on-screen key): the idle reset waits again.
    func noteInput() {
        lastInput = .now
    }

    /// Every input event counts as activity; lockdown swallows the shortcuts a kiosk must
    /// not honour. Returns true for a swallowed event.
    fileprivate func input(_ event: UnsafeMutablePointer<GdkEvent>) -> Bool {
        let type = event.pointee.type
        switch type {
        case GDK_KEY_PRESS, GDK_BUTTON_PRESS, GDK_MOTION_NOTIFY, GDK_SCROLL, GDK_TOUCH_BEGIN, GDK_TOUCH_UPDATE:
            lastInput = .now
        default:
            return false
        }
        guard options.lockdown else { return false }
        if type == GDK_KEY_PRESS {
            let key = event.pointee.key
            if let name = Self.blockedShortcut(keyval: key.keyval, state: GdkModifierType(rawValue: key.state)) {
                container?.record(.native(action: .blockedShortcut, detail: name))
                return true
            }
        }
        if type == GDK_BUTTON_PRESS, event.pointee.button.button == 8 || event.pointee.button.button == 9 {
            container?.record(.native(action: .blockedShortcut, detail: "mouse-button-\(event.pointee.button.button)"))
            return true
        }
        if type == GDK_SCROLL, event.pointee.scroll.state & GDK_CONTROL_MASK.rawValue != 0 {
            container?.record(.native(action: .blockedShortcut, detail: "ctrl+scroll"))
            return true
        }
        return false
    }

    /// Zoom (Ctrl +, -, =, 0), history (Alt+Left/Right/Home, Back/Forward keys), reload
    /// and developer-tools keys, fullscreen toggling.
    static func blockedShortcut(keyval: guint, state: GdkModifierType) -> String? {
        let control = state.rawValue & GDK_CONTROL_MASK.rawValue != 0
        let alt = state.rawValue & GDK_MOD1_MASK.rawValue != 0
        let key = Int32(bitPattern: keyval)
        switch key {
        // (A `where` clause would guard only the case's last pattern: the keys alone would
        // be swallowed too, and nobody could type "q" or move the caret.)
        case GDK_KEY_plus, GDK_KEY_minus, GDK_KEY_equal, GDK_KEY_0, GDK_KEY_KP_Add, GDK_KEY_KP_Subtract, GDK_KEY_KP_0:
            return control ? "ctrl+zoom" : nil
        case GDK_KEY_Left, GDK_KEY_Right, GDK_KEY_Home, GDK_KEY_KP_Left, GDK_KEY_KP_Right:
            return alt ? "alt+history" : nil
        case GDK_KEY_Back, GDK_KEY_Forward:
            return "history-key"
        case GDK_KEY_F5, GDK_KEY_F11, GDK_KEY_F12:
            return "function-key"
        case GDK_KEY_r, GDK_KEY_R, GDK_KEY_i, GDK_KEY_I, GDK_KEY_w, GDK_KEY_W, GDK_KEY_q, GDK_KEY_Q:
            return control ? "ctrl+\(Character(UnicodeScalar(UInt8(keyval & 0x7f))))" : nil
        default:
            return nil
        }
    }

    fileprivate func contextMenuRequested() {
        container?.record(.native(action: .blockedContextMenu, detail: ""))
    }

    // MARK: Idle reset

    private func startIdleTimer(_ idle: Duration) {
        idleTimer = Task { @MainActor [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: min(idle / 4, .seconds(1)))
                guard let self else { return }
                if ContinuousClock.now - self.lastInput >= idle { self.resetToStart() }
            }
        }
    }

    private func resetToStart() {
        lastInput = .now
        guard let container else { return }
        container.record(.native(action: .idleReset, detail: container.configuration.startURL?.absoluteString ?? ""))
        if options.clearsDataOnIdleReset {
            let manager = webkit_web_context_get_website_data_manager(ProcessWebContext.current)
            webkit_website_data_manager_clear(manager, WEBKIT_WEBSITE_DATA_ALL, 0, nil, nil, nil)
            container.record(.native(action: .dataCleared, detail: "all"))
        }
        container.returnToStart()
    }

    func tearDown() {
        idleTimer?.cancel()
        idleTimer = nil
        signals.disconnectAll()
        screenBlankingInhibitor = nil
    }

    isolated deinit {
        idleTimer?.cancel()
    }

}

/// `event` on a view: `gboolean (*)(GtkWidget*, GdkEvent*, gpointer)`; TRUE stops it.
private let onInputEvent: @convention(c) (UnsafeMutablePointer<GtkWidget>?, UnsafeMutablePointer<GdkEvent>?, gpointer?) -> gboolean = {
    _, event, data in
    guard let event else { return 0 }
    return onMainLoop((event, data)) { event, data in SignalContext.owner(data, as: KioskGuard.self)?.input(event) ?? false } ? 1 : 0
}

/// `context-menu`: `gboolean (*)(WebKitWebView*, WebKitContextMenu*, GdkEvent*, WebKitHitTestResult*, gpointer)`;
/// TRUE: no menu.
private let onContextMenu: @convention(c) (OpaquePointer?, OpaquePointer?, OpaquePointer?, OpaquePointer?, gpointer?) -> gboolean = {
    _, _, _, _, data in
    onMainLoop(data) { data in SignalContext.owner(data, as: KioskGuard.self)?.contextMenuRequested() }
    return 1
}
