import CWebKitGTK
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

/// The desktop's services for the capability strategies: the clipboard, and this window
/// and its siblings (`window` capability).
extension WebContainer: DesktopServices {
    public var desktop: (any DesktopServices)? { self }

    public func clipboardText() async -> String? { await Clipboard.text() }

    public func setClipboardText(_ text: String) {
        Clipboard.setText(text)
        record(.native(action: .clipboard, detail: "text"))
    }

    public func setClipboardImage(png: [UInt8]) throws {
        try Clipboard.setImage(png: png)
        record(.native(action: .clipboard, detail: "image"))
    }

    public func registerShortcut(_ accelerator: Accelerator, id: String) async throws {
        guard !isTornDown else { throw ScriptMessageError("shortcuts: the window has closed") }
        try await GlobalShortcuts.shared().register(accelerator, id: id, for: self)
    }

    public func unregisterShortcut(id: String) -> Bool {
        GlobalShortcuts.current?.unregister(id: id, for: self) ?? false
    }

    public func notify(_ notification: DesktopNotification) throws {
        try Notifier.shared().send(notification, from: self)
        record(.native(action: .notification, detail: notification.id))
    }

    public func chooseFiles(_ request: FileDialogRequest) async throws -> [String]? {
        // One dialog at a time per window.
        guard !isTornDown, fileChooser == nil, confirmation == nil else {
            throw ScriptMessageError("dialog: another dialog of this window is open")
        }
        let chooser = FileChooser(parent: windowPointer, request: request)
        fileChooser = chooser
        defer { if fileChooser === chooser { fileChooser = nil } }
        record(.native(action: .fileDialog, detail: request.kind.rawValue))
        return await chooser.choose()
    }

    public func showMessage(title: String, message: String) async {
        guard !isTornDown, confirmation == nil else { return }
        let dialog = ConfirmationDialog(parent: windowPointer, title: title, message: message, acknowledgeOnly: true)
        confirmation = dialog
        defer { if confirmation === dialog { confirmation = nil } }
        record(.native(action: .message, detail: title))
        _ = await dialog.ask()
    }

    /// Shown (mapped, not minimized) and active: GTK's view of the keyboard focus.
    public var isWindowFocusedAndVisible: Bool {
        guard !isTornDown, gtk_widget_get_mapped(window) != 0, gtk_window_is_active(windowPointer) != 0 else { return false }
        let state = gtk_widget_get_window(window).map { gdk_window_get_state($0).rawValue } ?? 0
        return state & (GDK_WINDOW_STATE_WITHDRAWN.rawValue | GDK_WINDOW_STATE_ICONIFIED.rawValue) == 0
    }

    public var isKioskWindow: Bool { configuration.kiosk != nil }

    public func perform(_ command: WindowCommand) throws -> JSONValue {
        let window = windowPointer
        switch command {
        case .state: return windowState
        case .setTitle(let title): setTitle(title)
        case .resize(let width, let height): gtk_window_resize(window, gint(width), gint(height))
        case .minimize: gtk_window_iconify(window)
        case .maximize: gtk_window_maximize(window)
        case .unmaximize: gtk_window_unmaximize(window)
        case .fullscreen(let on): on ? gtk_window_fullscreen(window) : gtk_window_unfullscreen(window)
        case .keepAbove(let on): gtk_window_set_keep_above(window, on ? 1 : 0)
        case .beginMove: try beginMove()
        case .close:
            // After the reply is on its way: the page hears `true`, then the window goes.
            Task { @MainActor [weak self] in self?.close() }
        case .open(let request):
            let opened = try openWindow(request)
            return ["id": .number(Double(opened.windowID))]
        }
        record(.native(action: .window, detail: "\(command)"))
        return true
    }

    /// Opens another window of the app on `request.url` (one of the app's origins): its own
    /// pane, with this window's chain, strategies, origin rules and event sinks. It joins
    /// this window's group: closing the last of them ends the program.
    @discardableResult
    public func openWindow(_ request: WindowRequest) throws -> WebContainer {
        guard !isTornDown else { throw ScriptMessageError("window: open: this window is closed") }
        let configuration = try configuration.forWindow(request, openWindows: windows.windows.count)
        let opened = WebContainer(configuration: configuration, joining: windows)
        opened.sinks = sinks
        opened.externalOpener = externalOpener
        opened.start()
        record(.native(action: .openWindow, detail: request.url.absoluteString))
        return opened
    }

    /// `[window] remember`: the size, position (X11) and maximized state saved for this app,
    /// applied before the window is first shown.
    func restoreWindowState() {
        guard let saved = WindowState.load(from: configuration.appDataDirectory) else { return }
        gtk_window_set_default_size(windowPointer, gint(saved.width), gint(saved.height))
        if let x = saved.x, let y = saved.y, vitrine_display_is_x11(gtk_widget_get_display(window)) != 0 {
            gtk_window_move(windowPointer, gint(x), gint(y))
        }
        if saved.maximized { gtk_window_maximize(windowPointer) }
        record(.native(action: .windowStateRestored, detail: "\(saved.width)x\(saved.height)\(saved.maximized ? ", maximized" : "")"))
    }

    /// Saves what `WindowWatch` last saw of the window, if anything; a failure is logged only.
    func saveWindowState(_ state: WindowState?) {
        guard let state, state.isSound else { return }
        do {
            try state.save(in: configuration.appDataDirectory)
        } catch {
            logger.warning("cannot remember the window's state: \(error)")
        }
    }

    /// `{id, title, width, height, maximized, fullscreen, focused}`.
    var windowState: JSONValue {
        var width: gint = 0, height: gint = 0
        gtk_window_get_size(windowPointer, &width, &height)
        let state = gtk_widget_get_window(window).map { gdk_window_get_state($0) }
        return [
            "id": .number(Double(windowID)),
            "title": .string(windowTitle),
            "width": .number(Double(width)),
            "height": .number(Double(height)),
            "maximized": .bool(gtk_window_is_maximized(windowPointer) != 0),
            "fullscreen": .bool(state.map { $0.rawValue & GDK_WINDOW_STATE_FULLSCREEN.rawValue != 0 } ?? false),
            "focused": .bool(gtk_window_is_active(windowPointer) != 0),
        ]
    }
}
