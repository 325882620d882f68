import Vitrine

/// The capability strategies' desktop: each service is one of the window's features.
extension WebContainer: DesktopServices {

    private func required<F: WindowFeature>(_ type: F.Type) throws(ScriptMessageError) -> F {
        guard !isTornDown, let feature = feature(type) else { throw ScriptMessageError("this window is closed") }
        return feature
    }

    public func clipboardText() async -> String? { await feature(ClipboardFeature.self)?.text() }
    public func setClipboardText(_ text: String) { feature(ClipboardFeature.self)?.setText(text) }
    public func setClipboardImage(png: [UInt8]) throws { try required(ClipboardFeature.self).setImage(png: png) }
    public func registerShortcut(_ accelerator: Accelerator, id: String) async throws {
        try await required(ShortcutFeature.self).register(accelerator, id: id)
    }
    public func unregisterShortcut(id: String) -> Bool { feature(ShortcutFeature.self)?.unregister(id: id) ?? false }
    public func notify(_ notification: DesktopNotification) throws { try required(NotificationFeature.self).notify(notification) }
    public func chooseFiles(_ request: FileDialogRequest) async throws -> [String]? {
        try await required(DialogFeature.self).chooseFiles(request)
    }
    public func showMessage(title: String, message: String) async {
        await feature(DialogFeature.self)?.showMessage(title: title, message: message)
    }
    public var isWindowFocusedAndVisible: Bool { feature(WindowControlFeature.self)?.isFocusedAndVisible ?? false }
    public var isKioskWindow: Bool { configuration.kiosk != nil }
    public func perform(_ command: WindowCommand) throws -> JSONValue { try required(WindowControlFeature.self).perform(command) }
    public func setMenu(_ menu: AppMenu?, placement: MenuPlacement, owner: FrameToken) throws(ScriptMessageError) {
        try required(MenuFeature.self).setMenu(menu, placement: placement, owner: owner)
    }
    public func printPage(owner: FrameToken) async throws -> Bool { try await required(PrintFeature.self).printPage(owner: owner) }
    public func pagePDF(_ settings: PrintSettings, owner: FrameToken) async throws -> [UInt8] {
        try await required(PrintFeature.self).pagePDF(settings, owner: owner)
    }
    public func setTray(_ tray: TrayIcon?, owner: FrameToken) throws(ScriptMessageError) {
        try required(TrayFeature.self).setTray(tray, owner: owner)
    }
}
