import Vitrine

/// The `tray` capability's service: `setTray(_:owner:)` is the feature's.
extension TrayFeature: TrayService {
    public var isKioskWindow: Bool { window?.configuration.kiosk != nil }
}
