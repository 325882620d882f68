import CWebKitGTK
import Vitrine

/// The colour scheme the window's pages see (`prefers-color-scheme`), from `[window]
/// color-scheme`: fixed light or dark, or the desktop's (`system`), read from its portal
/// and followed live (`DesktopAppearance`). WebKitGTK takes a page's scheme from GTK's
/// `gtk-application-prefer-dark-theme` (and a theme named `…-dark`), and notices when it
/// changes; the setting is the display's, so every window of the app follows it.
///
/// Events: `color-scheme` (`dark (desktop)`, `light (configured)`…) when the scheme pages
/// see changes; `color-scheme-ignored` with the reason when the portal sends a value that
/// is not one of its three.
@MainActor
public final class ColorSchemeFeature: WindowFeature {
    private weak var host: (any FeatureHost)?
    private var appearance: DesktopAppearance?
    private var applied: PageColorScheme?
    /// The desktop's setting, as last believed; nil until the portal answers.
    public private(set) var desktop: DesktopColorScheme?

    public init() {}

    public func attach(to host: any FeatureHost) {
        self.host = host
        let choice = host.configuration.colorScheme
        guard choice == .system else {
            apply(PageColorScheme.decide(choice, desktop: nil), source: "configured")
            return
        }
        appearance = DesktopAppearance { [weak self] reading in self?.heard(reading) }
    }

    public func tearDown() {
        appearance = nil
    }

    /// A value from the portal: believed and applied, or ignored with an events line.
    func heard(_ reading: DesktopColorScheme.Reading) {
        guard let host, !host.isClosed else { return }
        switch DesktopColorScheme.read(reading) {
        case .success(let scheme):
            desktop = scheme
            apply(PageColorScheme.decide(host.configuration.colorScheme, desktop: scheme), source: "desktop")
        case .failure(let refusal):
            host.record(.native(action: .colorSchemeIgnored, detail: refusal.reason))
        }
    }

    private func apply(_ scheme: PageColorScheme?, source: String) {
        guard let scheme, scheme != applied, let settings = gtk_settings_get_default() else { return }
        applied = scheme
        var value = GValue()
        g_value_init(&value, GType(5 << 2)) // G_TYPE_BOOLEAN, a macro Swift cannot import
        g_value_set_boolean(&value, scheme == .dark ? 1 : 0)
        g_object_set_property(gptr(settings).assumingMemoryBound(to: GObject.self), "gtk-application-prefer-dark-theme", &value)
        g_value_unset(&value)
        host?.record(.native(action: .colorScheme, detail: "\(scheme.rawValue) (\(source))"))
    }
}
