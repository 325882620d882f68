import Foundation
import Testing
import Vitrine
import VitrineConfigFile

/// The colour scheme pages see, decided without a desktop: `[window] color-scheme`, the
/// portal's values believed or not, and the two together.
@Suite("Colour scheme: the configuration's choice and the desktop's setting")
struct ColorSchemeTests {
    @Test func theChoiceIsReadFromTheWindowTableAndDefaultsToTheDesktops() throws {
        for choice in ColorSchemeChoice.allCases {
            let configuration = try ConfigFile(text: """
                start-url = "https://example.org/"
                [window]
                color-scheme = "\(choice.rawValue)"
                """, path: "scheme.toml").configuration()
            #expect(configuration.colorScheme == choice)
        }
        let plain = try ConfigFile(text: #"start-url = "https://example.org/""#, path: "plain.toml").configuration()
        #expect(plain.colorScheme == .system)
        let errors = configurationErrors("[window]\ncolor-scheme = \"auto\"\n", path: "scheme.toml")
        #expect(errors.count == 1 && errors.first?.hasPrefix("scheme.toml:2:") == true, "\(errors)")
        #expect(errors.first?.contains("system") == true, "the error names the choices: \(errors)")
    }

    @Test func thePortalsThreeValuesAreBelievedAndNothingElse() {
        #expect(DesktopColorScheme.read(.unsigned(0)) == .success(.noPreference))
        #expect(DesktopColorScheme.read(.unsigned(1)) == .success(.preferDark))
        #expect(DesktopColorScheme.read(.unsigned(2)) == .success(.preferLight))
        #expect(DesktopColorScheme.read(.unsigned(3)) == .failure(ColorSchemeRefusal(reason: "the portal's color-scheme is 3, not 0, 1 or 2")))
        #expect(DesktopColorScheme.read(.unsigned(.max)) == .failure(ColorSchemeRefusal(reason: "the portal's color-scheme is 4294967295, not 0, 1 or 2")))
        #expect(DesktopColorScheme.read(.other(type: "s")) == .failure(ColorSchemeRefusal(reason: #"the portal's color-scheme is of type "s", not "u""#)))
        // A long type string is cut: the events line stays short.
        let long = String(repeating: "a{sv}", count: 100)
        guard case .failure(let refusal) = DesktopColorScheme.read(.other(type: long)) else {
            Issue.record("a dictionary is no colour scheme")
            return
        }
        #expect(refusal.reason.count < 100)
    }

    @Test(arguments: [
        (ColorSchemeChoice.system, DesktopColorScheme?.none, PageColorScheme?.none),
        (.system, .preferDark, .dark), (.system, .preferLight, .light), (.system, .noPreference, .light),
        (.light, .preferDark, .light), (.light, nil, .light),
        (.dark, .preferLight, .dark), (.dark, nil, .dark),
    ])
    func theChoiceOverridesTheDesktopUnlessItIsSystem(choice: ColorSchemeChoice, desktop: DesktopColorScheme?, expected: PageColorScheme?) {
        #expect(PageColorScheme.decide(choice, desktop: desktop) == expected)
    }

    @Test func lightPagesTakeADarkNamedThemesLightVariant() {
        #expect(PageColorScheme.light.gtkThemeName(desktopTheme: "Adwaita-dark") == "Adwaita")
        #expect(PageColorScheme.light.gtkThemeName(desktopTheme: "Yaru-blue-dark") == "Yaru-blue")
        #expect(PageColorScheme.light.gtkThemeName(desktopTheme: "Adwaita") == "Adwaita")
        #expect(PageColorScheme.light.gtkThemeName(desktopTheme: "-dark") == "-dark", "no empty theme name")
        #expect(PageColorScheme.dark.gtkThemeName(desktopTheme: "Adwaita-dark") == "Adwaita-dark")
        #expect(PageColorScheme.dark.gtkThemeName(desktopTheme: "Adwaita") == "Adwaita")
        // GTK_THEME cannot be changed in a running program: said, not hidden.
        #expect(PageColorScheme.light.environmentConflict(gtkThemeVariable: "Adwaita:dark") == "GTK_THEME=Adwaita:dark keeps pages dark")
        #expect(PageColorScheme.light.environmentConflict(gtkThemeVariable: "Adwaita") == nil)
        #expect(PageColorScheme.light.environmentConflict(gtkThemeVariable: nil) == nil)
        #expect(PageColorScheme.dark.environmentConflict(gtkThemeVariable: "Adwaita:dark") == nil)
    }
}
