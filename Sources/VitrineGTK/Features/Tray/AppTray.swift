import CWebKitGTK
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

/// The app's one tray icon (`tray` capability, `WebContainer.setTray`), whichever window set
/// it: a page's, while its top document is shown, else an embedder's.
///
/// A page's icon belongs to the top document that set it: it goes when that document goes
/// (its view commits another page, its window closes), and the user's choices reach that
/// document only (`tray:activated` `{id}`, `tray:click`). A click on the icon also brings
/// back the windows `[window] close-to-tray` hid; when the icon goes while they are hidden,
/// they come back, so that the app never runs with no way to reach it.
///
/// One per app (`AppServices.tray`), made at the first icon; it owns the StatusNotifierItem,
/// dropped with the last icon.
@MainActor
final class AppTray {
    enum Owner {
        case document(FrameToken, pane: Weak)
        case embedder(@MainActor (TrayEvent) -> Void)
    }

    struct Weak { weak var pane: WebPane? }

    struct Shown {
        var icon: TrayIcon
        var item: StatusNotifierItem.Shown
        var owner: Owner
    }

    private var page: Shown?
    private var embedder: Shown?
    private var item: StatusNotifierItem?
    /// Windows hidden by `[window] close-to-tray`, until the icon brings them back.
    private var hidden: [WeakContainer] = []

    private struct WeakContainer { weak var container: WebContainer? }

    /// The icon shown, if any.
    var icon: TrayIcon? { (page ?? embedder)?.icon }

    func set(_ shown: Shown?, byPage: Bool) throws(ScriptMessageError) {
        if byPage { page = shown } else { embedder = shown }
        try refresh()
    }

    /// Removes `token`'s icon (the `clear` call of a page, or its document went).
    func remove(owner token: FrameToken?, pane: WebPane?) {
        guard case .document(let owner, let weak)? = page?.owner,
              token.map({ $0 == owner }) ?? true, weak.pane == nil || pane == nil || weak.pane === pane else { return }
        page = nil
        try? refresh()
    }

    /// A view committed another page: its document's icon goes.
    func documentChanged(in pane: WebPane) {
        guard case .document(_, let weak)? = page?.owner, weak.pane === pane || weak.pane == nil else { return }
        page = nil
        try? refresh()
    }

    private func refresh() throws(ScriptMessageError) {
        guard let shown = page ?? embedder else {
            item = nil
            showHiddenWindows()
            return
        }
        if let item {
            item.update(shown.item)
        } else {
            let item = try StatusNotifierItem(shown.item)
            item.onClick = { [weak self] in self?.heard(.click) }
            item.onChoose = { [weak self] command in self?.chosen(command) }
            self.item = item
        }
    }

    /// The desktop's bus name of the icon, while one is shown (for tests and diagnostics).
    var busName: String? { item?.busName }

    /// A host chose `command` of the menu: the core decides (a disabled or unknown command is
    /// nothing; a check item flips, and the hosts redraw it), then the owner hears it.
    private func chosen(_ command: String) {
        guard var shown = page ?? embedder, let event = shown.icon.choose(command) else { return }
        shown.item.menu = DBusMenuLayout(shown.icon.menu)
        if page != nil { page = shown } else { embedder = shown }
        item?.updateMenu(shown.item.menu)
        heard(event)
    }

    private func heard(_ event: TrayEvent) {
        if event == .click { showHiddenWindows() }
        guard let shown = page ?? embedder else { return }
        switch shown.owner {
        case .embedder(let handler):
            handler(event)
        case .document(let token, let weak):
            // The document that set the icon, still shown in its view: else nobody hears it.
            guard let pane = weak.pane, let container = pane.container, !container.isTornDown,
                  pane.messages.frames.mainToken == token else { return }
            if case .activated(let id, _) = event { container.record(.native(action: .trayActivated, detail: id)) }
            container.stage.emit(to: pane, event.name, event.payload)
        }
    }

    // MARK: Close to tray

    /// Whether closing `container` should hide it instead: `[window] close-to-tray`, an icon
    /// shown, and no other window of its group still shown.
    func hidesOnClose(_ container: WebContainer) -> Bool {
        guard container.configuration.closesToTray, icon != nil else { return false }
        let shownOthers = container.windows.windows.filter { $0 !== container && gtk_widget_get_visible($0.window) != 0 }
        guard shownOthers.isEmpty else { return false }
        gtk_widget_hide(container.window)
        hidden.append(WeakContainer(container: container))
        container.record(.native(action: .tray, detail: "window hidden to the tray"))
        return true
    }

    private func showHiddenWindows() {
        let windows = hidden.compactMap(\.container).filter { !$0.isTornDown }
        hidden = []
        for container in windows {
            gtk_widget_show(container.window)
            gtk_window_present(container.windowPointer)
            container.record(.native(action: .tray, detail: "window shown from the tray"))
        }
    }
}
