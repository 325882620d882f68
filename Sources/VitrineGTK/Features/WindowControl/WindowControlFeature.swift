import CWebKitGTK
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import Vitrine

/// The window as its pages may drive it (`window` capability: state, title, size, minimize,
/// maximize, fullscreen, keep above, move, close, open another window of the app), what
/// they hear of it (`WindowWatch`: focus, blur, resize), a frameless window's resize edges
/// (`WindowFrame`), and `[window] remember`: the size, position (X11) and maximized state
/// restored before the first show and saved when the window goes.
@MainActor
public final class WindowControlFeature: WindowFeature {
    private(set) weak var window: WebContainer?
    private var watch: WindowWatch?
    private var frame: WindowFrame?
    private let logger = Logger(label: "vitrine.window")

    public init() {}

    public func attach(to host: any FeatureHost) {
        guard let window = host.container else { return }
        self.window = window
        watch = WindowWatch(container: window, window: window.window)
        if window.configuration.remembersWindowState { restoreState() }
    }

    public func shown() {
        guard let window else { return }
        if window.configuration.kiosk == nil && !window.configuration.decorated { frame = frame ?? WindowFrame(container: window) }
    }

    public func tearDown() {
        if let window, window.configuration.remembersWindowState { saveState(watch?.state) }
        watch?.disconnect()
        watch = nil
        frame = nil
    }

    /// Shown (mapped, not minimized) and active: GTK's view of the keyboard focus.
    public var isFocusedAndVisible: Bool {
        guard let window, !window.isTornDown, gtk_widget_get_mapped(window.window) != 0,
              gtk_window_is_active(window.windowPointer) != 0 else { return false }
        let state = gtk_widget_get_window(window.window).map { gdk_window_get_state($0).rawValue } ?? 0
        return state & (GDK_WINDOW_STATE_WITHDRAWN.rawValue | GDK_WINDOW_STATE_ICONIFIED.rawValue) == 0
    }

    /// Carries out `command` for this window; answers its result.
    public func perform(_ command: WindowCommand) throws -> JSONValue {
        guard let container = window, !container.isTornDown else { throw ScriptMessageError("window: this window is closed") }
        let window = container.windowPointer
        switch command {
        case .state: return state(of: container)
        case .setTitle(let title): container.setTitle(title)
        case .resize(let width, let height): gtk_window_resize(window, gint(width), gint(height))
        case .minimize: gtk_window_iconify(window)
        case .maximize: gtk_window_maximize(window)
        case .unmaximize: gtk_window_unmaximize(window)
        case .fullscreen(let on): on ? gtk_window_fullscreen(window) : gtk_window_unfullscreen(window)
        case .keepAbove(let on): gtk_window_set_keep_above(window, on ? 1 : 0)
        case .beginMove: try beginMove(container)
        case .close:
            // After the reply is on its way: the page hears `true`, then the window goes.
            Task { @MainActor [weak container] in container?.close() }
        case .open(let request):
            let opened = try open(request)
            return ["id": .number(Double(opened.windowID))]
        }
        container.record(.native(action: .window, detail: "\(command)"))
        return true
    }

    /// Opens another window of the app on `request.url` (one of the app's origins): its own
    /// pane, with this window's chain, strategies, origin rules and event sinks. It joins
    /// this window's group: closing the last of them ends the program.
    @discardableResult
    public func open(_ request: WindowRequest) throws -> WebContainer {
        guard let container = window, !container.isTornDown else { throw ScriptMessageError("window: open: this window is closed") }
        let configuration = try container.configuration.forWindow(request, openWindows: container.windows.windows.count)
        let opened = WebContainer(configuration: configuration, joining: container.windows)
        opened.sinks = container.sinks
        opened.externalOpener = container.externalOpener
        opened.start()
        container.record(.native(action: .openWindow, detail: request.url.absoluteString))
        return opened
    }

    /// Moves the window with the pointer (the window manager's move), only while the
    /// pointer's first button is held: a page cannot start a move the user did not press for.
    private func beginMove(_ container: WebContainer) throws(ScriptMessageError) {
        let window = container.window
        guard let gdkWindow = gtk_widget_get_window(window), let seat = gdk_display_get_default_seat(gtk_widget_get_display(window)),
              let pointer = gdk_seat_get_pointer(seat) else { throw ScriptMessageError("window: beginMove: the window is not shown") }
        var mask = GdkModifierType(rawValue: 0)
        gdk_window_get_device_position(gdkWindow, pointer, nil, nil, &mask)
        guard mask.rawValue & GDK_BUTTON1_MASK.rawValue != 0 else {
            throw ScriptMessageError("window: beginMove: only while the pointer's first button is held (a press on a drag region)")
        }
        var x: gint = 0, y: gint = 0
        gdk_device_get_position(pointer, nil, &x, &y)
        gtk_window_begin_move_drag(container.windowPointer, 1, x, y, guint32(GDK_CURRENT_TIME))
    }

    /// The size, position and maximized state saved for this app, applied before the first show.
    private func restoreState() {
        guard let container = window, let saved = WindowState.load(from: container.configuration.appDataDirectory) else { return }
        let window = container.windowPointer
        gtk_window_set_default_size(window, gint(saved.width), gint(saved.height))
        if let x = saved.x, let y = saved.y, vitrine_display_is_x11(gtk_widget_get_display(container.window)) != 0 {
            gtk_window_move(window, gint(x), gint(y))
        }
        if saved.maximized { gtk_window_maximize(window) }
        container.record(.native(action: .windowStateRestored, detail: "\(saved.width)x\(saved.height)\(saved.maximized ? ", maximized" : "")"))
    }

    /// Saves what `WindowWatch` last saw of the window, if anything; a failure is logged only.
    private func saveState(_ state: WindowState?) {
        guard let state, state.isSound, let window else { return }
        do {
            try state.save(in: window.configuration.appDataDirectory)
        } catch {
            logger.warning("cannot remember the window's state: \(error)")
        }
    }

    /// `{id, title, width, height, maximized, fullscreen, focused}`.
    private func state(of container: WebContainer) -> JSONValue {
        let window = container.windowPointer
        var width: gint = 0, height: gint = 0
        gtk_window_get_size(window, &width, &height)
        let state = gtk_widget_get_window(container.window).map { gdk_window_get_state($0) }
        return [
            "id": .number(Double(container.windowID)),
            "title": .string(container.windowTitle),
            "width": .number(Double(width)),
            "height": .number(Double(height)),
            "maximized": .bool(gtk_window_is_maximized(window) != 0),
            "fullscreen": .bool(state.map { $0.rawValue & GDK_WINDOW_STATE_FULLSCREEN.rawValue != 0 } ?? false),
            "focused": .bool(gtk_window_is_active(window) != 0),
        ]
    }
}
