/// The presets `ConfiguratorFactory` can make.
public enum Preset: String, CaseIterable, Sendable {
    /// An open container: everything loads; `page` and `user` strategies.
    case `default`
    /// `default` with zoom disabled and the title following the page.
    case productPage
    /// Payment pages verified natively, then deep links, then everything else allowed.
    case payment
    /// Your own app: `product-page` with the window remembered and the origin allowlist
    /// (links to other sites open in the desktop's browser); no routes of its own.
    case app
    /// The bundled demo hybrid app: every built-in handler and strategy in use (the
    /// preset when nothing says what to open).
    case demo
    /// An unattended fullscreen kiosk: locked down, only allowed origins, recovers by itself.
    case kiosk

    /// Accepts the case name or its kebab-case spelling (`productPage`, `product-page`).
    public init?(name: String) {
        let folded = name.filter { $0 != "-" }.lowercased()
        guard let preset = Preset.allCases.first(where: { $0.rawValue.lowercased() == folded }) else { return nil }
        self = preset
    }

    /// The kebab-case name the command line shows.
    public var commandLineName: String {
        rawValue.reduce(into: "") { name, character in
            if character.isUppercase { name += "-" + character.lowercased() } else { name.append(character) }
        }
    }
}
