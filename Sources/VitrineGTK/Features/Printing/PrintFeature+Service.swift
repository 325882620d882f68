import Vitrine

/// The `print` capability's service: `printPage` and `pagePDF` are the feature's.
extension PrintFeature: PrintService {
    public var isKioskWindow: Bool { window?.configuration.kiosk != nil }
}
