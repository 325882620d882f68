import CWebKitGTK
import Vitrine

/// A frameless window's frame (`[window] decorations = false`): a press within `edge`
/// pixels of the window's border resizes it from there (the window manager's own resize,
/// `gtk_window_begin_resize_drag`); the page's drag regions move it (`beginMove`). Hit-tested
/// here rather than in the page: the page cannot make a press anywhere resize the window.
///
/// Ownership: its signal connections on the views, disconnected when it goes.
@MainActor
final class WindowFrame {
    static let edge: Double = 6
    private weak var container: WebContainer?
    private let signals = SignalConnections()

    init(container: WebContainer) {
        self.container = container
        for pane in container.stage.panes {
            signals.connect(gptr(pane.webView), "button-press-event", context: SignalContext(owner: self), handler: gCallback(onButtonPress))
        }
    }

    /// The border `x`, `y` (in the window) is on, if any.
    static func border(x: Double, y: Double, width: Double, height: Double) -> GdkWindowEdge? {
        let left = x < edge, right = x >= width - edge, top = y < edge, bottom = y >= height - edge
        switch (left, right, top, bottom) {
        case (true, _, true, _): return GDK_WINDOW_EDGE_NORTH_WEST
        case (_, true, true, _): return GDK_WINDOW_EDGE_NORTH_EAST
        case (true, _, _, true): return GDK_WINDOW_EDGE_SOUTH_WEST
        case (_, true, _, true): return GDK_WINDOW_EDGE_SOUTH_EAST
        case (true, _, _, _): return GDK_WINDOW_EDGE_WEST
        case (_, true, _, _): return GDK_WINDOW_EDGE_EAST
        case (_, _, true, _): return GDK_WINDOW_EDGE_NORTH
        case (_, _, _, true): return GDK_WINDOW_EDGE_SOUTH
        default: return nil
        }
    }

    fileprivate func pressed(_ event: GdkEventButton) -> Bool {
        guard let container, !container.isTornDown, event.button == 1, event.type == GDK_BUTTON_PRESS,
              let window = gtk_widget_get_window(container.window) else { return false }
        var originX: gint = 0, originY: gint = 0
        gdk_window_get_origin(window, &originX, &originY)
        let x = event.x_root - Double(originX), y = event.y_root - Double(originY)
        let width = Double(gdk_window_get_width(window)), height = Double(gdk_window_get_height(window))
        guard let edge = Self.border(x: x, y: y, width: width, height: height) else { return false }
        gtk_window_begin_resize_drag(container.windowPointer, edge, gint(event.button), gint(event.x_root), gint(event.y_root), event.time)
        container.record(.native(action: .window, detail: "resize from \(edge.rawValue)"))
        return true
    }
}

/// `button-press-event`: `gboolean (*)(GtkWidget*, GdkEventButton*, gpointer)`; TRUE: a resize began.
private let onButtonPress: @convention(c) (UnsafeMutablePointer<GtkWidget>?, UnsafeMutablePointer<GdkEventButton>?, gpointer?) -> gboolean = {
    _, event, data in
    guard let event else { return 0 }
    let copy = event.pointee
    return onMainLoop((data, copy)) { data, copy in SignalContext.owner(data, as: WindowFrame.self)?.pressed(copy) ?? false } ? 1 : 0
}
