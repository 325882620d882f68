import Vitrine

/// The `menu` capability's service: `setMenu(_:placement:owner:)` is the feature's.
extension MenuFeature: MenuService {
    public var isKioskWindow: Bool { window?.configuration.kiosk != nil }
}
