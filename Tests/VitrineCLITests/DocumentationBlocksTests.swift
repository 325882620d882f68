import Foundation
import Testing
import VitrineTestSupport

/// Every code block in the README and docs/ that is a configuration or a command, checked
/// against the program as built: configurations through `check-config`, `vitrine` commands
/// against their subcommand's `--help`, `make` targets against the Makefile, packaging commands
/// against the Makefile's packages (DocumentationBlocksTests+Commands.swift), benchmark
/// scripts' flags against the scripts, JavaScript through Node's syntax check and JSON lines
/// by parsing them.
@Suite("Documentation: every configuration and command block holds")
struct DocumentationBlocksTests {
    let documentation: Documentation

    init() throws { documentation = try Documentation() }

    func vitrine(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        try runProcess("/usr/bin/env", ["-u", "DISPLAY", "-u", "WAYLAND_DISPLAY", try BuiltProducts.path("vitrine")] + arguments, timeout: 30)
    }

    /// Each TOML block is a whole configuration file `check-config` accepts as written. A
    /// block may name files of the machine it is written for (`/etc/vitrine/kiosk.pem`): the
    /// test provides those it reports missing — under a folder of its own, the same path
    /// below it, mode 0600 — and checks again, so that nothing else is left to report.
    @Test func everyConfigurationBlockPassesCheckConfig() throws {
        let blocks = documentation.codeBlocks.filter { $0.language == "toml" }
        #expect(blocks.count >= 8)
        for block in blocks {
            // In a folder of its own, as the samples are (Resources/configs): `app-dir = "../demo"`.
            let folder = try ConfigFolder()
            let configs = try folder.makeFolder("configs")
            let path = URL(fileURLWithPath: configs).appendingPathComponent("documented.toml").path
            for name in block.text.matches(of: /(?:app-dir|folder)\s*=\s*"([^"\/][^"]*)"/).map({ String($0.1) }) {
                let target = URL(fileURLWithPath: configs).appendingPathComponent(name).standardized
                guard target.path.hasPrefix(folder.path) else { continue }
                try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
            }
            var text = block.text, problems: [Substring] = []
            for _ in 0..<2 {
                try text.write(toFile: path, atomically: true, encoding: .utf8)
                let run = try vitrine(["check-config", path])
                // Warnings (a printer this machine lacks) leave the status 0.
                problems = run.status == 0 ? [] : run.stderr.split(separator: "\n").filter { $0.contains("documented.toml:") }
                #expect(run.status == 0 || !problems.isEmpty, "\(block): check-config failed without a problem: \(run.stderr)")
                let missing = Set(block.text.matches(of: /"(\/[^"]+)"/).map { String($0.1) }.filter { file in
                    problems.contains { $0.contains("\"\(file)\"") && $0.contains("must be an existing") }
                })
                if missing.isEmpty { break }
                for file in missing {
                    let provided = folder.path + "/machine" + file
                    try FileManager.default.createDirectory(atPath: (provided as NSString).deletingLastPathComponent,
                                                            withIntermediateDirectories: true)
                    if problems.contains(where: { $0.contains("\"\(file)\"") && $0.contains("existing folder") }) {
                        try FileManager.default.createDirectory(atPath: provided, withIntermediateDirectories: true)
                    } else {
                        _ = FileManager.default.createFile(atPath: provided, contents: Data("provided by the test\n".utf8),
                                                       attributes: [.posixPermissions: 0o600])
                    }
                    text = text.replacingOccurrences(of: "\"\(file)\"", with: "\"\(provided)\"")
                }
            }
            for problem in problems {
                // The reference shows each key alone: a key its table also requires may be left out.
                let leavesOutASibling = block.document == "docs/reference/configuration.md" && problem.contains(" needs ")
                #expect(leavesOutASibling, "\(block): \(problem)")
            }
        }
    }

    /// Each benchmark script a block runs exists and knows every flag given to it.
    @Test func everyBenchmarkCommandUsesTheScriptsFlags() throws {
        var checked = 0
        for documented in DocumentedCommands(documentation, inlineFor: []).all {
            let command = documented.words
            guard let script = command.firstIndex(where: { $0.hasPrefix("benchmarks/") && $0.hasSuffix(".py") }) else { continue }
            let file = Documentation.root.appendingPathComponent(command[script])
            let source = try String(contentsOf: file, encoding: .utf8)
            for flag in command[(script + 1)...] where flag.hasPrefix("--") {
                let name = String(flag.split(separator: "=")[0])
                #expect(source.contains("\"\(name)\""), "\(documented): \(command[script]) has no \(name)")
            }
            checked += 1
        }
        #expect(checked >= 8)
    }

    @Test func everyJavaScriptBlockParses() throws {
        let blocks = documentation.codeBlocks.filter { $0.language == "js" }
        #expect(!blocks.isEmpty)
        for block in blocks {
            let folder = try ConfigFolder()
            // A module, so that top-level `await` (as the docs write it) parses.
            let path = try folder.write("block.mjs", block.text)
            let run = try runProcess("/usr/bin/env", ["node", "--check", path], timeout: 30)
            #expect(run.status == 0, "\(block): \(run.stderr)")
        }
    }

    @Test func everyJSONBlockIsJSONLines() throws {
        for block in documentation.codeBlocks where block.language == "json" {
            for line in block.text.split(separator: "\n") where !line.trimmingCharacters(in: .whitespaces).isEmpty {
                let parsed = try? JSONSerialization.jsonObject(with: Data(line.utf8))
                #expect(parsed is [String: Any], "\(block): not a JSON object: \(line)")
            }
        }
    }
}
