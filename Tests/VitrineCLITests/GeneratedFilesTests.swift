import Foundation
import Testing
import VitrineTestSupport

/// The files generated from the program's declarations are committed: each must be what
/// `vitrine generate` makes of today's declarations, or `make generated` has not been run.
@Suite
struct GeneratedFilesTests {
    private static let root = Documentation.root

    @Test(arguments: [
        ("config-flags", "Sources/vitrine/ConfigFlags.swift"),
        ("vitrine.1", "packaging/man/vitrine.1"),
        ("vitrine.toml.5", "packaging/man/vitrine.toml.5"),
        ("reference/configuration.md", "docs/reference/configuration.md"),
        ("reference/cli.md", "docs/reference/cli.md"),
        ("reference/events.md", "docs/reference/events.md"),
        ("reference/mqtt.md", "docs/reference/mqtt.md"),
        ("reference/metrics.md", "docs/reference/metrics.md"),
    ])
    func theCommittedFileIsFresh(output: String, path: String) throws {
        let run = try runProcess(try BuiltProducts.path("vitrine"), ["generate", output], timeout: 20)
        #expect(run.status == 0, "\(run.stderr)")
        let committed = try String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8)
        #expect(!run.stdout.isEmpty)
        #expect(run.stdout == committed, "\(path) is stale: run `make generated` and commit it")
    }

    /// The manual lists every configuration key and every option of `open`.
    @Test func theManualsListEveryKeyAndFlag() throws {
        let vitrine = try BuiltProducts.path("vitrine")
        let keys = try runProcess(vitrine, ["generate", "vitrine.toml.5"], timeout: 20).stdout
        for key in ["title", "window.width", "kiosk.rotation", "remote.mqtt.broker", "schedule.playlist.url", "app-id"] {
            #expect(keys.contains("\\fB" + key.replacing("-", with: "\\-") + "\\fR"), "vitrine.toml.5 lacks \(key)")
        }
        let manual = try runProcess(vitrine, ["generate", "vitrine.1"], timeout: 20).stdout
        for flag in ["width", "allow-origin", "no-sandbox", "app-id", "exit-after-load", "load-timeout"] {
            #expect(manual.contains("\\fB\\-\\-" + flag.replacing("-", with: "\\-") + "\\fR"), "vitrine.1 lacks --\(flag)")
        }
        #expect(!manual.contains("\\fBgenerate\\fR"), "the hidden generate command stays out of the manual")
    }

    /// Every key with a value (all but the tables that only group keys, `[window]`) states
    /// its default, in the reference and in vitrine.toml(5).
    @Test func everyKeyOfTheReferenceHasADefault() throws {
        let reference = try String(contentsOf: Self.root.appendingPathComponent("docs/reference/configuration.md"), encoding: .utf8)
        let sections = reference.components(separatedBy: "\n## `").dropFirst()
        #expect(sections.count > 100)
        var valued = 0
        for section in sections {
            let key = String(section.prefix { $0 != "`" })
            let groupsKeys = key.hasPrefix("[") && !key.hasPrefix("[[")
            if !groupsKeys { valued += 1 }
            #expect(groupsKeys || section.contains("**Default:** "), "\(key) has no default in configuration.md")
        }
        let manual = try String(contentsOf: Self.root.appendingPathComponent("packaging/man/vitrine.toml.5"), encoding: .utf8)
        #expect(manual.components(separatedBy: "Default: ").count - 1 >= valued, "vitrine.toml.5 leaves out defaults")
    }

    /// The playlist's keys are described once: `[[displays.playlist]]` and `[[zones.playlist]]`
    /// point to `[[schedule.playlist]]` rather than repeating its thirteen keys.
    @Test func thePlaylistKeysAreOneTable() throws {
        let reference = try String(contentsOf: Self.root.appendingPathComponent("docs/reference/configuration.md"), encoding: .utf8)
        let manual = try String(contentsOf: Self.root.appendingPathComponent("packaging/man/vitrine.toml.5"), encoding: .utf8)
        #expect(reference.contains("\n## `schedule.playlist.duration`\n"))
        for table in ["displays.playlist", "zones.playlist"] {
            #expect(!reference.contains("## `\(table).") && !manual.contains("\(table).duration"), "\(table)'s keys are repeated")
            let section = reference.components(separatedBy: "\n## `[[\(table)]]`\n").dropFirst().first ?? ""
            #expect(section.components(separatedBy: "\n## ")[0].contains("[`[[schedule.playlist]]`](#scheduleplaylist)"), "[[\(table)]] does not point to the shared table")
        }
    }

    /// Every command the program shows in its help, at any depth (`fleet ls`), has its
    /// section in cli.md and its entry in vitrine.1. The tree is read from the program itself.
    @Test func theCLIReferenceCoversEveryCommandAtEveryDepth() throws {
        let dump = try runProcess(try BuiltProducts.path("vitrine"), ["--experimental-dump-help"], timeout: 20)
        let root = try #require(try JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as? [String: Any])
        func paths(_ command: [String: Any], _ path: [String]) -> [[String]] {
            guard command["shouldDisplay"] as? Bool != false else { return [] }
            let subcommands = command["subcommands"] as? [[String: Any]] ?? []
            return [path] + subcommands.flatMap { paths($0, path + [$0["commandName"] as? String ?? "?"]) }
        }
        let commands = paths(try #require(root["command"] as? [String: Any]), []).filter { !$0.isEmpty && $0 != ["help"] }
        #expect(commands.contains(["fleet", "ls"]) && commands.contains(["fleet", "screenshot"]))
        let cli = try String(contentsOf: Self.root.appendingPathComponent("docs/reference/cli.md"), encoding: .utf8)
        let manual = try String(contentsOf: Self.root.appendingPathComponent("packaging/man/vitrine.1"), encoding: .utf8)
        for path in commands {
            #expect(cli.contains("\n## `vitrine " + path.joined(separator: " ") + "`\n"), "cli.md lacks vitrine \(path.joined(separator: " "))")
            // open, the default command, is the synopsis's optional word and OPTIONS' subject.
            let entry = path == ["open"] ? ".RB [ open ]" : "\\fB" + path.joined(separator: " ").replacing("-", with: "\\-") + "\\fR"
            #expect(manual.contains(entry),
                    "vitrine.1 lacks \(path.joined(separator: " "))")
        }
    }

    /// groff reads both pages without a warning (the package's check does the same with man).
    @Test(arguments: ["packaging/man/vitrine.1", "packaging/man/vitrine.toml.5"])
    func thePagesRenderWithoutWarnings(path: String) throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/groff") else { return }
        let run = try runProcess("/usr/bin/groff", ["-man", "-ww", "-z", Self.root.appendingPathComponent(path).path], timeout: 20)
        #expect(run.status == 0 && run.stderr.isEmpty, "\(run.stderr)")
    }
}
