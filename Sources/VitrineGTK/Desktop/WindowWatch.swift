import CWebKitGTK
import Vitrine

/// Tells a window's pages when it gains or loses focus or changes size (`window:focus`,
/// `window:blur`, `window:resize` with `{width, height}`). Owns its signal connections on
/// the window, disconnected when it goes.
@MainActor
final class WindowWatch {
    private weak var container: WebContainer?
    private let signals = SignalConnections()
    private var size: (width: Int32, height: Int32) = (0, 0)

    init(container: WebContainer, window: UnsafeMutablePointer<GtkWidget>) {
        self.container = container
        let context = { SignalContext(owner: self) }
        signals.connect(gptr(window), "focus-in-event", context: context(), handler: gCallback(onFocusIn))
        signals.connect(gptr(window), "focus-out-event", context: context(), handler: gCallback(onFocusOut))
        signals.connect(gptr(window), "configure-event", context: context(), handler: gCallback(onConfigure))
    }

    fileprivate func focusChanged(_ focused: Bool) {
        container?.emit(focused ? "window:focus" : "window:blur")
    }

    /// `configure-event` also fires on moves: only a new size is told.
    fileprivate func configured(width: Int32, height: Int32) {
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
