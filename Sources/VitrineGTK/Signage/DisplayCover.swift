import CWebKitGTK
import Vitrine

/// The screen blanked by a schedule or `vitrine ctl display off`: a black page of the
/// stage's stack shown instead of the web content, which is thereby unmapped — WebKit
/// then pauses the page and reports it hidden (`visibilitychange`). X11 DPMS turns the
/// monitor off as well where the X server has the extension (`ScreenPower`); without it
/// (Xvfb, Wayland) the black cover is what blanks the screen.
///
/// Ownership: holds its widget (a reference, also the stack's child) and its signal
/// connections (the cover's pointer and touch input, the window's keys), released in
/// `deinit`. Input while the cover is shown goes to `onInput` and never reaches the page.
@MainActor
final class DisplayCover {
    static let stackName = "display-off"

    private weak var container: WebContainer?
    private let cover: GObjectReference<GtkWidget>
    private let signals = SignalConnections()
    /// The stack page shown before the cover (the web content, or a native route).
    private var coveredChild: String?
    private var power = ScreenPower()
    var isShown: Bool { coveredChild != nil }
    /// The black widget (tests send it input).
    var widget: UnsafeMutablePointer<GtkWidget> { cover.pointer }
    /// Input while the screen is off (a key, a click, a touch).
    var onInput: (() -> Void)?

    init(container: WebContainer) {
        self.container = container
        let box = gtk_event_box_new()!
        cover = GObjectReference(retaining: box)
        gtk_event_box_set_visible_window(cast(box), 1)
        gtk_widget_set_name(box, "vitrine-display-off")
        let provider = gtk_css_provider_new()
        gtk_css_provider_load_from_data(provider, "#vitrine-display-off { background-color: black; }", -1, nil)
        gtk_style_context_add_provider(gtk_widget_get_style_context(box), OpaquePointer(provider), guint(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
        g_object_unref(gptr(provider!))
        gtk_widget_add_events(box, gint(GDK_BUTTON_PRESS_MASK.rawValue | GDK_TOUCH_MASK.rawValue))
        gtk_stack_add_named(container.stage.stackPointer, box, Self.stackName)
        gtk_widget_show(box)
        let context = SignalContext(owner: self)
        signals.connect(gptr(box), "button-press-event", context: context, handler: gCallback(onCoverInput))
        signals.connect(gptr(box), "touch-event", context: context, handler: gCallback(onCoverInput))
        signals.connect(gptr(container.window), "key-press-event", context: context, handler: gCallback(onCoverInput))
    }

    /// Covers the window (the page is hidden) and asks the monitor to sleep.
    func show() {
        guard let container, !isShown, !container.isTornDown else { return }
        let stack = container.stage.stackPointer
        coveredChild = gtk_stack_get_visible_child_name(stack).map { String(cString: $0) } ?? "main"
        gtk_stack_set_visible_child_full(stack, Self.stackName, GTK_STACK_TRANSITION_TYPE_NONE)
        power.set(on: false, window: container.window)
    }

    /// Shows the page again (it is visible again) and wakes the monitor.
    func hide() {
        guard let container, let covered = coveredChild, !container.isTornDown else { return }
        coveredChild = nil
        power.set(on: true, window: container.window)
        gtk_stack_set_visible_child_full(container.stage.stackPointer, covered, GTK_STACK_TRANSITION_TYPE_NONE)
    }

    /// TRUE (swallowed) while shown: the hidden page gets no input.
    fileprivate func input() -> Bool {
        guard isShown else { return false }
        onInput?()
        return true
    }
}

/// `button-press-event`, `touch-event`, `key-press-event`: `gboolean (*)(GtkWidget*, GdkEvent*, gpointer)`.
private let onCoverInput: @convention(c) (UnsafeMutablePointer<GtkWidget>?, UnsafeMutablePointer<GdkEvent>?, gpointer?) -> gboolean = {
    _, _, data in
    onMainLoop(data) { data in SignalContext.owner(data, as: DisplayCover.self)?.input() ?? false } ? 1 : 0
}
