import Vitrine

/// The `shortcuts` capability's service.
extension ShortcutFeature: ShortcutService {
    public func registerShortcut(_ accelerator: Accelerator, id: String) async throws { try await register(accelerator, id: id) }
    public func unregisterShortcut(id: String) -> Bool { unregister(id: id) }
    public var isKioskWindow: Bool { window?.configuration.kiosk != nil }
}
