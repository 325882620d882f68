import CWebKitGTK
import Vitrine

/// The window's menus: a page's (`menu` capability) and an embedder's (`setMenuBar`).
extension WebContainer {
    /// Shows `menu` as the window's menu bar (nil: removes it); `onActivate` hears each
    /// choice. A page's menu bar, while its document lives, shows in its place. A kiosk's
    /// window never shows menus: there this throws.
    public func setMenuBar(_ menu: AppMenu?, onActivate: @escaping @MainActor (MenuActivation) -> Void) throws(ScriptMessageError) {
        try windowMenus().set(menu, placement: .menuBar, owner: .embedder(onActivate))
    }

    /// The menu bar the window shows, if any.
    public var menuBar: AppMenu? { menus?.menuBar }

    public func setMenu(_ menu: AppMenu?, placement: MenuPlacement, owner: FrameToken) throws(ScriptMessageError) {
        let pane = try pane(showing: owner, for: "menu")
        try windowMenus().set(menu, placement: placement, owner: .document(owner, pane: .init(pane: pane)))
        record(.native(action: .menu, detail: "\(placement.rawValue) \(menu.map { "\($0.commands.count) commands" } ?? "removed")"))
    }

    private func windowMenus() throws(ScriptMessageError) -> WindowMenus {
        guard configuration.kiosk == nil else { throw ScriptMessageError("menu: a kiosk never shows menus") }
        guard !isTornDown else { throw ScriptMessageError("menu: this window is closed") }
        if let menus { return menus }
        let menus = WindowMenus(container: self, layout: cast(layout))
        self.menus = menus
        return menus
    }
}
