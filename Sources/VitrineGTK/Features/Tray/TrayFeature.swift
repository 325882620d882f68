import CWebKitGTK
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

/// The app's tray icon as one window sees it: a page's (`tray` capability) and an
/// embedder's (`setTray`), shown by the app's one `AppTray` (`AppServices.tray`). A page's
/// icon goes with its document; `[window] close-to-tray` hides the window instead of
/// closing it while an icon shows.
@MainActor
public final class TrayFeature: WindowFeature {
    private(set) weak var window: WebContainer?

    public init() {}

    public func attach(to host: any FeatureHost) {
        window = host.container
    }

    public func loadChanged(_ load: PaneLoad) {
        if load.event == .committed, let pane = load.pane { services?.existingTray?.documentChanged(in: pane) }
    }

    public func tearDown() {
        guard let window, let tray = services?.existingTray else { return }
        for pane in window.stage.panes { tray.documentChanged(in: pane) }
    }

    private var services: AppServices? { window?.windows.services }

    /// Shows `tray` as the app's tray icon (nil: removes it); `onEvent` hears each choice of
    /// its menu and each click. A page's icon, while its document lives, shows in its place.
    /// A kiosk has no tray: there this throws, as it does for an icon file that is not a PNG
    /// or SVG of the app's folder, or without a session bus.
    public func setTray(_ tray: TrayIcon?, onEvent: @escaping @MainActor (TrayEvent) -> Void) throws(ScriptMessageError) {
        guard let window, let services else { throw ScriptMessageError("tray: this window is closed") }
        let shown = try tray.map { icon throws(ScriptMessageError) in
            AppTray.Shown(icon: icon, item: try TrayIconImage.item(for: icon, in: window), owner: .embedder(onEvent))
        }
        try services.tray.set(shown, byPage: false)
    }

    /// The tray icon the app shows, if any.
    public var icon: TrayIcon? { services?.existingTray?.icon }

    /// The icon's name on the session bus (`org.kde.StatusNotifierItem-PID-1`), while one shows.
    public var busName: String? { services?.existingTray?.busName }

    /// Shows `tray` for the top document `owner` (nil: removes the icon `owner` set).
    public func setTray(_ tray: TrayIcon?, owner: FrameToken) throws(ScriptMessageError) {
        guard let window, let services else { throw ScriptMessageError("tray: this window is closed") }
        let pane = try window.stage.pane(showing: owner, for: "tray")
        guard let tray else {
            services.existingTray?.remove(owner: owner, pane: pane)
            window.record(.native(action: .tray, detail: "removed"))
            return
        }
        let shown = AppTray.Shown(icon: tray, item: try TrayIconImage.item(for: tray, in: window), owner: .document(owner, pane: .init(pane: pane)))
        try services.tray.set(shown, byPage: true)
        window.record(.native(action: .tray, detail: "\(tray.menu.commands.count) commands"))
    }

    /// Whether closing the window hides it instead (`[window] close-to-tray`).
    func hidesOnClose() -> Bool {
        guard let window else { return false }
        return services?.existingTray?.hidesOnClose(window) ?? false
    }
}
