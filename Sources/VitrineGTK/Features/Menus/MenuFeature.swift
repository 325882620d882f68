import CWebKitGTK
import Vitrine

/// The window's menus: a page's (`menu` capability) and an embedder's (`setMenuBar`), shown
/// by `WindowMenus`, made at the first menu. A kiosk's window never shows menus.
@MainActor
public final class MenuFeature: WindowFeature {
    private(set) weak var window: WebContainer?
    private var menus: WindowMenus?

    public init() {}

    public func attach(to host: any FeatureHost) {
        window = host.container
    }

    public func loadChanged(_ load: PaneLoad) {
        if load.event == .committed, let pane = load.pane { menus?.documentChanged(in: pane) }
    }

    public func tearDown() {
        menus?.tearDown()
        menus = nil
    }

    /// Shows `menu` as the window's menu bar (nil: removes it); `onActivate` hears each
    /// choice. A page's menu bar, while its document lives, shows in its place.
    public func setMenuBar(_ menu: AppMenu?, onActivate: @escaping @MainActor (MenuActivation) -> Void) throws(ScriptMessageError) {
        try windowMenus().set(menu, placement: .menuBar, owner: .embedder(onActivate))
    }

    /// The menu bar the window shows, if any.
    public var menuBar: AppMenu? { menus?.menuBar }

    /// Shows `menu` at `placement` for the top document `owner` (nil: removes it there).
    public func setMenu(_ menu: AppMenu?, placement: MenuPlacement, owner: FrameToken) throws(ScriptMessageError) {
        guard let window else { throw ScriptMessageError("menu: this window is closed") }
        let pane = try window.stage.pane(showing: owner, for: "menu")
        try windowMenus().set(menu, placement: placement, owner: .document(owner, pane: .init(pane: pane)))
        window.record(.native(action: .menu, detail: "\(placement.rawValue) \(menu.map { "\($0.commands.count) commands" } ?? "removed")"))
    }

    private func windowMenus() throws(ScriptMessageError) -> WindowMenus {
        guard let window else { throw ScriptMessageError("menu: this window is closed") }
        guard window.configuration.kiosk == nil else { throw ScriptMessageError("menu: a kiosk never shows menus") }
        guard !window.isTornDown else { throw ScriptMessageError("menu: this window is closed") }
        if let menus { return menus }
        let menus = WindowMenus(container: window, layout: cast(window.layout))
        self.menus = menus
        return menus
    }
}
