import Vitrine

/// The `window` capability's service (and the kiosk check of `app`): `perform` is the feature's.
extension WindowControlFeature: WindowService {
    public var isKioskWindow: Bool { window?.configuration.kiosk != nil }
}
