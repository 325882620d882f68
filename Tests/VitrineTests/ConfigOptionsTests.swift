import Foundation
import Testing
import Vitrine
import VitrineTestSupport
@testable import VitrineConfigFile

/// The option table itself: each option is declared once, documented, and its rule is the
/// one the file and the command line both apply.
@Suite("Config file: the option table")
struct ConfigOptionsTests {
    @Test func keysAndFlagsAreDeclaredOnceEachWithADoc() {
        let keys = ConfigOptions.all.map(\.key), flags = ConfigOptions.all.compactMap(\.flag)
        #expect(Set(keys).count == keys.count)
        #expect(Set(flags).count == flags.count)
        for option in ConfigOptions.all {
            #expect(!option.doc.isEmpty, "\(option.key) has no doc")
            #expect(option.parent.isEmpty || keys.contains(option.parent), "\(option.key) is in an undeclared table")
        }
    }

    @Test func everyKeyAndFlagIsDocumented() throws {
        let readme = try Documentation().allText
        for option in ConfigOptions.all {
            let written = ["`\(option.key)`", "\n\(option.name) =", "[\(option.key)"].contains { readme.contains($0) }
            #expect(written, "no document documents \(option.key)")
            if let flag = option.flag { #expect(readme.contains("`--\(flag)"), "no document documents --\(flag)") }
        }
    }

    /// A date is no option's type: each value option refuses it, at its position, naming
    /// its key and what it expects.
    @Test func everyValueOptionRefusesAWrongType() throws {
        for option in ConfigOptions.all where option.type != nil {
            // A key of an array of tables' entries is written in a `[[table]]` (after its own
            // table's, when that is one too: `[[displays.playlist]]`) and named by its index.
            func isTables(_ key: String) -> Bool { if case .tables? = ConfigOptions.option(key)?.kind { true } else { false } }
            let inTables = isTables(option.parent)
            let outer = ConfigOptions.option(option.parent)?.parent ?? ""
            let nested = inTables && isTables(outer)
            let header = inTables ? (nested ? "[[\(outer)]]\n" : "") + "[[\(option.parent)]]" : "[\(option.parent)]"
            let parentName = nested ? "\(outer)[0].\(ConfigOptions.option(option.parent)?.name ?? "")" : option.parent
            let key = inTables ? "\(parentName)[0].\(option.name)" : option.key
            let text = option.parent.isEmpty ? "\(option.name) = 1970-01-01" : "\(header)\n\(option.name) = 1970-01-01"
            let line = option.parent.isEmpty ? 1 : nested ? 3 : 2
            do {
                _ = try ConfigFile(text: text, path: "t.toml")
                Issue.record("\(option.key) accepted a date")
            } catch {
                // An entry's missing keys are reported too (at its header, so first).
                let problem = error.allErrors.map(\.description).first { $0.hasPrefix("t.toml:\(line):") } ?? error.description
                #expect(problem.hasPrefix("t.toml:\(line):\(option.name.count + 4): \(key) must be "), "\(error)")
                #expect(problem.hasSuffix(", got a date"), "\(error)")
            }
        }
    }

    /// The command line refuses what the file refuses, for every flag the table declares.
    @Test(arguments: [
        ("preset", "nonsense", "unknown preset 'nonsense'; expected one of: default, product-page, payment, app, demo, kiosk"),
        ("width", "0", "--width must be positive, got 0"),
        ("height", "-3", "--height must be positive, got -3"),
        ("allow-origin", "https://a.example/path",
         "--allow-origin must be an origin such as https://example.org (scheme://host[:port], no path), got 'https://a.example/path'"),
        ("app-dir", "/nonexistent/www", "--app-dir '/nonexistent/www' is not a folder"),
        ("user-agent", "", "--user-agent must be non-empty text without control characters"),
    ])
    func flagsAreCheckedByTheFilesRules(flag: String, bad: String, message: String) throws {
        #expect(ConfigFile.commandLineProblem(flag: flag, value: bad) == message)
        let option = try #require(ConfigOptions.option(flag: flag))
        let text = option.parent.isEmpty ? "\(option.name) = \"\(bad)\"" : "[\(option.parent)]\n\(option.name) = \(bad)"
        #expect(throws: ConfigFileError.self, "the file refuses it too") { try ConfigFile(text: text, path: "t.toml") }
    }

    @Test func goodFlagValuesPass() {
        for (flag, good) in [("preset", "kiosk"), ("preset", "productPage"), ("width", "640"), ("height", "1"),
                             ("allow-origin", "https://a.example"), ("app-dir", "/"), ("user-agent", "X/1")] {
            #expect(ConfigFile.commandLineProblem(flag: flag, value: good) == nil, "--\(flag) \(good)")
        }
        #expect(ConfigFile.commandLineProblem(flag: "screenshot", value: "x") == nil, "flags the table does not declare are not its to check")
    }

    /// Every option the table lets through a flag is one `ConfigOverrides` can carry, and
    /// the other way round.
    @Test func overridesCarryTheDeclaredFlags() {
        let overrides = ConfigOverrides(
            width: 1, height: 1, fullscreen: true, allowedOrigins: [Origin(serialized: "https://a.example")!],
            userAgent: "X", developerTools: true, sandbox: false, startupTrace: true, appID: "org.example.X")
        let declared = Set(ConfigOptions.all.filter { $0.flag != nil && $0.apply != nil }.compactMap(\.flag))
        #expect(Set(overrides.values.keys) == declared)
    }

    @Test func theSummaryFollowsTheTable() throws {
        let configuration = try ConfigFile(text: """
            preset = "kiosk"
            start-url = "https://example.org/"
            [[tabs]]
            title = "Home"
            url = "https://example.org/"
            [kiosk]
            idle-reset = 90
            """, path: "t.toml").configuration()
        let lines = ConfigFile.summary(of: configuration, preset: .kiosk)
        #expect(lines.map(\.0) == ["preset", "start URL", "window", "chain", "strategies", "tabs", "kiosk"])
        #expect(lines.last?.1 == "yes, locked down, idle reset after 90 s")
    }
}
