#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Which colour scheme the app's pages see (`prefers-color-scheme`): `[window] color-scheme`.
public enum ColorSchemeChoice: String, Sendable, CaseIterable {
    /// The desktop's, read from its portal at start and followed while the app runs.
    case system
    /// Always light, whatever the desktop says.
    case light
    /// Always dark.
    case dark
}

/// The desktop's colour scheme as the portal's `org.freedesktop.appearance` `color-scheme`
/// says it: 0 no preference, 1 prefer dark, 2 prefer light.
public enum DesktopColorScheme: UInt32, Sendable, Equatable {
    case noPreference = 0
    case preferDark = 1
    case preferLight = 2

    /// A value as the portal sent it, before it is believed.
    public enum Reading: Sendable, Equatable {
        /// An unsigned 32-bit integer (GVariant `u`), as the portal documents it.
        case unsigned(UInt32)
        /// Anything else: its GVariant type string.
        case other(type: String)
    }

    /// The setting `reading` says, or why it is ignored.
    public static func read(_ reading: Reading) -> Result<DesktopColorScheme, ColorSchemeRefusal> {
        switch reading {
        case .unsigned(let value):
            guard let scheme = DesktopColorScheme(rawValue: value) else {
                return .failure(ColorSchemeRefusal(reason: "the portal's color-scheme is \(value), not 0, 1 or 2"))
            }
            return .success(scheme)
        case .other(let type):
            return .failure(ColorSchemeRefusal(reason: "the portal's color-scheme is of type \"\(type.prefix(32))\", not \"u\""))
        }
    }
}

/// Why a value from the portal was not believed.
public struct ColorSchemeRefusal: Error, Sendable, Equatable {
    public let reason: String

    public init(reason: String) {
        self.reason = reason
    }
}

/// The scheme pages see, decided from the configuration's choice and the desktop's setting.
public enum PageColorScheme: String, Sendable, Equatable {
    case light, dark

    /// `choice` with the desktop's `desktop` setting (nil: not known, no portal); nil when
    /// the pages keep GTK's own theme (the desktop said nothing).
    public static func decide(_ choice: ColorSchemeChoice, desktop: DesktopColorScheme?) -> PageColorScheme? {
        switch (choice, desktop) {
        case (.light, _): return .light
        case (.dark, _): return .dark
        case (.system, nil): return nil
        case (.system, .preferDark?): return .dark
        case (.system, .preferLight?), (.system, .noPreference?): return .light
        }
    }

    /// The GTK theme the window takes for `self` when the desktop's is `desktopTheme`.
    /// WebKitGTK calls a theme named `…-dark` dark whatever `gtk-application-prefer-dark-theme`
    /// says, so light pages take its light variant (the same name without `-dark`); dark ones
    /// keep the desktop's.
    public func gtkThemeName(desktopTheme: String) -> String {
        guard self == .light, desktopTheme.hasSuffix("-dark"), desktopTheme.count > 5 else { return desktopTheme }
        return String(desktopTheme.dropLast(5))
    }

    /// Why the pages stay dark although `self` is light, when the environment's `GTK_THEME`
    /// (`name:dark`, which WebKitGTK reads as dark and the program cannot change once
    /// running) says so; nil otherwise.
    public func environmentConflict(gtkThemeVariable: String?) -> String? {
        guard self == .light, let theme = gtkThemeVariable, theme.hasSuffix(":dark") else { return nil }
        return "GTK_THEME=\(theme.prefix(64)) keeps pages dark"
    }
}
