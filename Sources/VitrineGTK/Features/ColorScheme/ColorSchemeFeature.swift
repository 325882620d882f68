import CWebKitGTK
import Vitrine

/// The colour scheme the window's pages see (`prefers-color-scheme`), from `[window]
/// color-scheme`: fixed light or dark, or the desktop's (`system`), read from its portal
/// and followed live (`DesktopAppearance`). WebKitGTK takes a page's scheme from GTK's
/// `gtk-application-prefer-dark-theme` and from a theme named `…-dark` (so light pages take
/// such a theme's light variant), and notices when either changes; the settings are the
/// display's, so every window of the app follows them. `GTK_THEME=name:dark` in the
/// environment keeps pages dark, which the `color-scheme` events line then says.
///
/// Events: `color-scheme` (`dark (desktop)`, `light (configured)`…) when the scheme pages
/// see changes; `color-scheme-ignored` with the reason when the portal sends a value that
/// is not one of its three.
@MainActor
public final class ColorSchemeFeature: WindowFeature {
    private weak var host: (any FeatureHost)?
    private var appearance: DesktopAppearance?
    private var applied: PageColorScheme?
    /// GTK's theme as the desktop set it, before a light scheme took its light variant.
    private var desktopThemeName: String?
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
        let object = gptr(settings).assumingMemoryBound(to: GObject.self)
        var value = GValue()
        g_value_init(&value, GType(5 << 2)) // G_TYPE_BOOLEAN, a macro Swift cannot import
        g_value_set_boolean(&value, scheme == .dark ? 1 : 0)
        g_object_set_property(object, "gtk-application-prefer-dark-theme", &value)
        g_value_unset(&value)
        var notes: [String] = []
        let desktopTheme = desktopThemeName ?? Self.property(object, "gtk-theme-name") ?? ""
        desktopThemeName = desktopTheme
        let theme = scheme.gtkThemeName(desktopTheme: desktopTheme)
        if theme != Self.property(object, "gtk-theme-name") {
            var text = GValue()
            g_value_init(&text, GType(16 << 2)) // G_TYPE_STRING
            g_value_set_string(&text, theme)
            g_object_set_property(object, "gtk-theme-name", &text)
            g_value_unset(&text)
            notes.append("theme \(theme)")
        }
        if let conflict = scheme.environmentConflict(gtkThemeVariable: string(g_getenv("GTK_THEME"))) { notes.append(conflict) }
        let detail = notes.isEmpty ? source : ([source] + notes).joined(separator: "; ")
        host?.record(.native(action: .colorScheme, detail: "\(scheme.rawValue) (\(detail))"))
    }

    private static func property(_ object: UnsafeMutablePointer<GObject>, _ property: String) -> String? {
        var value = GValue()
        g_value_init(&value, GType(16 << 2)) // G_TYPE_STRING
        defer { g_value_unset(&value) }
        g_object_get_property(object, property, &value)
        return g_value_get_string(&value).map { String(cString: $0) }
    }
}
