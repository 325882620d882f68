import Vitrine

/// The clipboard for a window's pages (`clipboard` capability): what is put there is logged;
/// what may be read is the strategy's decision (a focused, shown window: `isFocusedAndVisible`).
@MainActor
public final class ClipboardFeature: WindowFeature {
    private(set) weak var host: (any FeatureHost)?

    public init() {}

    public func attach(to host: any FeatureHost) {
        self.host = host
    }

    /// The clipboard's text, or nil when it holds none.
    public func text() async -> String? { await Clipboard.text() }

    public func setText(_ text: String) {
        Clipboard.setText(text)
        host?.record(.native(action: .clipboard, detail: "text"))
    }

    /// Puts a PNG image on the clipboard; throws when the bytes are not an image.
    public func setImage(png: [UInt8]) throws {
        try Clipboard.setImage(png: png)
        host?.record(.native(action: .clipboard, detail: "image"))
    }
}
