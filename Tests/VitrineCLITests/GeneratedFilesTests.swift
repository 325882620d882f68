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

    /// groff reads both pages without a warning (the package's check does the same with man).
    @Test(arguments: ["packaging/man/vitrine.1", "packaging/man/vitrine.toml.5"])
    func thePagesRenderWithoutWarnings(path: String) throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/groff") else { return }
        let run = try runProcess("/usr/bin/groff", ["-man", "-ww", "-z", Self.root.appendingPathComponent(path).path], timeout: 20)
        #expect(run.status == 0 && run.stderr.isEmpty, "\(run.stderr)")
    }
}
