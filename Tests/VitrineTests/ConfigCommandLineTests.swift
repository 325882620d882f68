import Foundation
import Testing
import Vitrine
@testable import VitrineConfigFile
import VitrineTestSupport

/// The command line's configuration flags come from the option table: their names, forms and
/// checks, what `ConfigOverrides(commandLine:)` makes of them — and of hostile values — and
/// the manual's description of every key.
@Suite("Config file: flags and manual from the option table")
struct ConfigCommandLineTests {
    /// The flags are the interface: the same names as always, each with its form.
    @Test func theFlagsAreTheTablesAndKeepTheirNames() {
        let flags = ConfigFile.flagDescriptions
        #expect(flags.compactMap(\.flag) == ["preset", "allow-origin", "app-dir", "user-agent", "developer-tools",
                                             "width", "height", "fullscreen", "sandbox", "startup-trace", "app-id"])
        #expect(flags.first { $0.flag == "fullscreen" }?.flagForm == .toggle)
        #expect(flags.first { $0.flag == "allow-origin" }?.flagForm == .repeated(valueName: "origin"))
        #expect(flags.first { $0.flag == "width" }?.flagForm == .value(valueName: "n"))
        #expect(flags.first { $0.flag == "app-id" }?.flagForm == .value(valueName: "app-id"))
        // Every flag sets a single value, of a type the command line can carry.
        for option in ConfigOptions.all where option.flag != nil {
            #expect(option.type.map { $0.valueName != nil || $0.commandLineValue("x") != nil } == true, "--\(option.flag!)")
        }
    }

    @Test func valuesAreReadByTheirOptionsRules() throws {
        let overrides = try ConfigOverrides(commandLine: [
            "preset": ["kiosk"], "width": ["800"], "fullscreen": ["false"],
            "allow-origin": ["https://a.example", "https://b.example:8443"], "app-id": ["org.example.Shop"],
        ], startURL: URL(string: "https://a.example/"))
        #expect(overrides == ConfigOverrides(
            preset: .kiosk, startURL: URL(string: "https://a.example/"), width: 800, fullscreen: false,
            allowedOrigins: [Origin(serialized: "https://a.example")!, Origin(serialized: "https://b.example:8443")!],
            appID: "org.example.Shop"))
        let configuration = try overrides.configurator().build()
        #expect(configuration.windowSize.width == 800 && !configuration.fullscreen)
        #expect(try ConfigOverrides(commandLine: [:]) == ConfigOverrides())
    }

    /// The folder is resolved where the command runs, even through `..` and a symlink's name.
    @Test func anAppFolderIsStandardized() throws {
        let folder = try ConfigFolder()
        let www = try folder.makeFolder("www")
        let overrides = try ConfigOverrides(commandLine: ["app-dir": [www + "/../www/"]])
        #expect(overrides.appDirectory?.path == URL(fileURLWithPath: www).standardizedFileURL.path)
    }

    @Test(arguments: [
        (["width": ["abc"]], "--width must be positive, got abc"),
        (["width": ["-5"]], "--width must be positive, got -5"),
        (["width": ["99999999999999999999999"]], "--width must be positive, got 99999999999999999999999"),
        (["preset": ["../../etc"]], "unknown preset '../../etc'; expected one of: default, product-page, payment, app, demo, kiosk"),
        (["allow-origin": ["https://a.example", "javascript:alert(1)"]], "--allow-origin must be an origin"),
        (["allow-origin": ["https://a.example/path"]], "--allow-origin must be an origin"),
        (["app-id": ["org.example.Shop\nX-Injected: 1"]], "--app-id must be a reverse-DNS application id"),
        (["app-id": ["a"]], "--app-id must be a reverse-DNS application id"),
        (["user-agent": [""]], "--user-agent must be non-empty text without control characters"),
        (["user-agent": ["Kiosk/1\r\nX-Injected: 1"]], "--user-agent must be non-empty text without control characters"),
        (["app-dir": ["/etc/passwd"]], "--app-dir '/etc/passwd' is not a folder"),
        (["fullscreen": ["maybe"]], "--fullscreen must be true or false, got 'maybe'"),
        (["width": ["800", "600"]], "--width is given more than once"),
        (["title": ["Lobby"]], "--title is not an option of a configuration file"),
        (["format-disk": ["now"]], "--format-disk is not an option of a configuration file"),
    ] as [([String: [String]], String)])
    func badValuesAreRefusedClearly(commandLine: [String: [String]], message: String) {
        #expect(throws: ConfigCommandLineError.self) { try ConfigOverrides(commandLine: commandLine) }
        do {
            _ = try ConfigOverrides(commandLine: commandLine)
        } catch {
            #expect(error.description.hasPrefix(message), "\(error)")
        }
    }

    /// Every key is described; every example the manual shows is a file the decoder accepts.
    @Test func everyKeyIsDescribedWithAnExampleThatIsAccepted() throws {
        let descriptions = ConfigFile.keyDescriptions
        #expect(descriptions.map(\.key) == ConfigOptions.all.map(\.key))
        let folder = try ConfigFolder()
        for description in descriptions {
            #expect(!description.doc.isEmpty)
            guard description.form == .value || description.form == .structured else {
                #expect(description.example == nil && description.expectation == nil)
                continue
            }
            #expect(description.expectation?.isEmpty == false, "\(description.key)")
            let example = try #require(description.example, "\(description.key) has no example")
            let path = try folder.write("example.toml", example + "\n")
            // Only the example's own key is judged (a table's other required keys are not in
            // it), and a file or folder it names need not exist here.
            let name = description.key.split(separator: ".").last.map(String.init) ?? description.key
            let problems = Self.problems(in: path).filter {
                ($0.contains("\(name) must") || $0.contains("unknown key")) && !$0.contains("must be an existing")
            }
            #expect(problems.isEmpty, "\(description.key): \(example) → \(problems)")
        }
    }

    /// Every key with a value of its own says what it is in a built configuration, and each
    /// preset, built with no file, gives it one: the reference's defaults cannot leave one out.
    @Test func everyKeyHasItsEffectiveValueUnderEveryPreset() throws {
        let defaults = try ConfigFile.keyDefaults(resources: ResourceLocator(), installedResources: "/usr/share/vitrine")
        for option in ConfigOptions.all {
            if case .section = option.kind, option.apply == nil, option.enablingKey == nil { continue }
            #expect(option.printed != nil, "\(option.key) has no printable value")
            let presets = (defaults[option.key] ?? []).flatMap(\.presets)
            #expect(presets.sorted { $0.rawValue < $1.rawValue } == Preset.allCases.sorted { $0.rawValue < $1.rawValue },
                    "\(option.key): defaults for \(presets)")
        }
        // Values as a script compares them, and what the presets are known to differ in.
        #expect(defaults["window.width"] == [KeyDefault(presets: Preset.allCases, value: .items(["1024"]))])
        #expect(defaults["kiosk.unresponsive-timeout"] == [KeyDefault(presets: Preset.allCases, value: .items(["10"]))])
        #expect(defaults["security.allow-automation"]?.first { $0.presets == [.kiosk] }?.value == .items(["false"]))
        #expect(defaults["app-dir"]?.first { $0.presets == [.demo] }?.value == .items(["/usr/share/vitrine/demo"]))
        #expect(defaults["user-agent"] == [KeyDefault(presets: Preset.allCases, value: .unset)])
    }

    private static func problems(in path: String) -> [String] {
        do {
            _ = try ConfigFile(path: path)
            return []
        } catch {
            return error.allErrors.map(\.description)
        }
    }
}
