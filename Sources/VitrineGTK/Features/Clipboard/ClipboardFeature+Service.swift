import Vitrine

/// The `clipboard` capability's service.
extension ClipboardFeature: ClipboardService {
    public func clipboardText() async -> String? { await text() }
    public func setClipboardText(_ text: String) { setText(text) }
    public func setClipboardImage(png: [UInt8]) throws { try setImage(png: png) }

    /// The window's (`WindowControlFeature`); false without one.
    public var isWindowFocusedAndVisible: Bool {
        host?.container?.feature(WindowControlFeature.self)?.isFocusedAndVisible ?? false
    }
}
