import CWebKitGTK
import Vitrine

/// Tells a window's pages when it gains or loses focus or changes size (`window:focus`,
/// `window:blur`, `window:resize` with `{width, height}`), and follows its size, position
/// (X11) and maximized state for `[window] remember` (`state`). Owns its signal
/// connections on the window, disconnected when it goes.
@MainActor
final class WindowWatch {
    private weak var container: WebContainer?
    private let signals = SignalConnections()
    private let window: UnsafeMutablePointer<GtkWidget>
    private var size: (width: Int32, height: Int32) = (0, 0)
    /// The window's state as last seen: its size and position when not maximized.
    private(set) var state: WindowState?

    init(container: WebContainer, window: UnsafeMutablePointer<GtkWidget>) {
        self.container = container
        self.window = window
        let context = { SignalContext(owner: self) }
        signals.connect(gptr(window), "focus-in-event", context: context(), handler: gCallback(onFocusIn))
        signals.connect(gptr(window), "focus-out-event", context: context(), handler: gCallback(onFocusOut))
        signals.connect(gptr(window), "configure-event", context: context(), handler: gCallback(onConfigure))
        signals.connect(gptr(window), "window-state-event", context: context(), handler: gCallback(onWindowState))
    }

    /// Notes the size and position while the window is neither maximized nor fullscreen:
    /// what it goes back to.
    private func noteGeometry() {
        let gtkWindow: UnsafeMutablePointer<GtkWindow> = cast(window)
        let maximized = gtk_window_is_maximized(gtkWindow) != 0
        guard !maximized, !isFullscreen else {
            state?.maximized = maximized
            return
        }
        var width: gint = 0, height: gint = 0
        gtk_window_get_size(gtkWindow, &width, &height)
        var x: gint = 0, y: gint = 0
        let x11 = vitrine_display_is_x11(gtk_widget_get_display(window)) != 0
        if x11 { gtk_window_get_position(gtkWindow, &x, &y) }
        state = WindowState(width: Int(width), height: Int(height), x: x11 ? Int(x) : nil, y: x11 ? Int(y) : nil)
    }

    private var isFullscreen: Bool {
        guard let gdkWindow = gtk_widget_get_window(window) else { return false }
        return gdk_window_get_state(gdkWindow).rawValue & GDK_WINDOW_STATE_FULLSCREEN.rawValue != 0
    }

    fileprivate func stateChanged(maximized: Bool) {
        if maximized { state?.maximized = true } else { noteGeometry() }
    }

    fileprivate func focusChanged(_ focused: Bool) {
        container?.emit(focused ? "window:focus" : "window:blur")
    }

    /// `configure-event` also fires on moves: only a new size is told.
    fileprivate func configured(width: Int32, height: Int32) {
        noteGeometry()
        guard (width, height) != size else { return }
        size = (width, height)
        container?.emit("window:resize", ["width": .number(Double(width)), "height": .number(Double(height))])
    }

    func disconnect() {
        signals.disconnectAll()
    }
}

/// `focus-in-event` / `focus-out-event`: `gboolean (*)(GtkWidget*, GdkEventFocus*, gpointer)`; FALSE lets GTK go on.
private let onFocusIn: @convention(c) (UnsafeMutablePointer<GtkWidget>?, OpaquePointer?, gpointer?) -> gboolean = { _, _, data in
    onMainLoop(data) { SignalContext.owner($0, as: WindowWatch.self)?.focusChanged(true) }
    return 0
}

private let onFocusOut: @convention(c) (UnsafeMutablePointer<GtkWidget>?, OpaquePointer?, gpointer?) -> gboolean = { _, _, data in
    onMainLoop(data) { SignalContext.owner($0, as: WindowWatch.self)?.focusChanged(false) }
    return 0
}

/// `configure-event`: `gboolean (*)(GtkWidget*, GdkEventConfigure*, gpointer)`.
private let onConfigure: @convention(c) (UnsafeMutablePointer<GtkWidget>?, UnsafeMutablePointer<GdkEventConfigure>?, gpointer?) -> gboolean = { _, event, data in
    guard let event else { return 0 }
    let (width, height) = (event.pointee.width, event.pointee.height)
    onMainLoop((data, width, height)) { data, width, height in
        SignalContext.owner(data, as: WindowWatch.self)?.configured(width: width, height: height)
    }
    return 0
}

/// `window-state-event`: `gboolean (*)(GtkWidget*, GdkEventWindowState*, gpointer)`.
private let onWindowState: @convention(c) (UnsafeMutablePointer<GtkWidget>?, UnsafeMutablePointer<GdkEventWindowState>?, gpointer?) -> gboolean = { _, event, data in
    guard let event else { return 0 }
    let maximized = event.pointee.new_window_state.rawValue & GDK_WINDOW_STATE_MAXIMIZED.rawValue != 0
    onMainLoop((data, maximized)) { data, maximized in
        SignalContext.owner(data, as: WindowWatch.self)?.stateChanged(maximized: maximized)
    }
    return 0
}
