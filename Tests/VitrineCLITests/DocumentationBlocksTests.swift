import Foundation
import Testing
import VitrineTestSupport

/// Every code block in the README and docs/ that is a configuration or a command, checked
/// against the program as built: configurations through `check-config`, `vitrine` commands
/// against their subcommand's `--help`, `make` targets against the Makefile, benchmark
/// scripts' flags against the scripts, JavaScript through Node's syntax check and JSON lines
/// by parsing them.
@Suite("Documentation: every configuration and command block holds")
struct DocumentationBlocksTests {
    let documentation: Documentation

    init() throws { documentation = try Documentation() }

    private func vitrine(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        try runProcess("/usr/bin/env", ["-u", "DISPLAY", "-u", "WAYLAND_DISPLAY", try BuiltProducts.path("vitrine")] + arguments, timeout: 30)
    }

    /// Each TOML block is a whole configuration file `check-config` accepts. A block may name
    /// files of the machine it is written for (`/etc/vitrine/kiosk.pem`): those, and only
    /// those, may be reported missing.
    @Test func everyConfigurationBlockPassesCheckConfig() throws {
        let blocks = documentation.codeBlocks.filter { $0.language == "toml" }
        #expect(blocks.count >= 8)
        for block in blocks {
            // In a folder of its own, as the samples are (Resources/configs): `app-dir = "../demo"`.
            let folder = try ConfigFolder()
            let configs = try folder.makeFolder("configs")
            let path = URL(fileURLWithPath: configs).appendingPathComponent("documented.toml").path
            try block.text.write(toFile: path, atomically: true, encoding: .utf8)
            for name in block.text.matches(of: /(?:app-dir|folder)\s*=\s*"([^"\/][^"]*)"/).map({ String($0.1) }) {
                let target = URL(fileURLWithPath: configs).appendingPathComponent(name).standardized
                guard target.path.hasPrefix(folder.path) else { continue }
                try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
            }
            let run = try vitrine(["check-config", path])
            if run.status == 0 { continue }
            let problems = run.stderr.split(separator: "\n").filter { $0.contains("documented.toml:") }
            #expect(!problems.isEmpty, "\(block): check-config failed without a problem: \(run.stderr)")
            for problem in problems {
                let namesAMachineFile = block.text.matches(of: /"(\/[^"]+)"/).contains { problem.contains($0.1) }
                // The reference shows each key alone: a key its table also requires may be left out.
                let leavesOutASibling = block.document == "docs/reference/configuration.md" && problem.contains(" needs ")
                #expect(namesAMachineFile || leavesOutASibling, "\(block): \(problem)")
            }
        }
    }

    /// Each `vitrine` command in a shell block names a subcommand that exists and only flags
    /// its `--help` lists.
    @Test func everyVitrineCommandUsesRealSubcommandsAndFlags() throws {
        var helps: [String: String] = [:]
        // The subcommands `vitrine --help` lists: two-space-indented names under SUBCOMMANDS.
        let overview = try vitrine(["--help"]).stdout
        let subcommands = overview.split(separator: "\n").drop { !$0.hasPrefix("SUBCOMMANDS") }.dropFirst()
            .filter { $0.hasPrefix("  ") && !$0.hasPrefix("   ") }
            .compactMap { $0.split(separator: " ").first.map(String.init) }
        #expect(subcommands.contains("bundle") && subcommands.contains("open"), "\(subcommands)")
        var checked = 0
        for (block, command) in shellCommands() {
            guard let first = command.first, first == "vitrine" || first.hasSuffix("/vitrine") else { continue }
            let words = Array(command.dropFirst())
            var subcommand = words.first.flatMap { subcommands.contains($0) ? $0 : nil } ?? "open"
            // `fleet` has subcommands of its own: `fleet push`'s flags are in its help.
            if subcommand == "fleet", words.count > 1 { subcommand += " " + words[1] }
            if helps[subcommand] == nil {
                let run = try vitrine(subcommand.split(separator: " ").map(String.init) + ["--help"])
                #expect(run.status == 0, "vitrine \(subcommand) --help: \(run.stderr)")
                helps[subcommand] = run.stdout
            }
            for flag in words where flag.hasPrefix("--") {
                let name = String(flag.split(separator: "=")[0])
                if name == "--help" || name == "--version" { continue }
                #expect(helps[subcommand]!.contains(name), "\(block): vitrine \(subcommand) has no \(name)")
            }
            checked += 1
        }
        #expect(checked >= 10)
    }

    /// Each `make TARGET` in a shell block is a target of the Makefile, or of the one a
    /// `vitrine new` project gets (the app developers' pages run those in their project).
    /// The Makefile includes packaging/pkg-config.mk's targets.
    @Test func everyMakeTargetExists() throws {
        let makefile = try ["Makefile", "packaging/pkg-config.mk", "Resources/templates/app/Makefile"].map {
            try String(contentsOf: Documentation.root.appendingPathComponent($0), encoding: .utf8)
        }.joined(separator: "\n")
        let targets = Set(makefile.split(separator: "\n").compactMap { line -> String? in
            guard let colon = line.firstIndex(of: ":"), !line.hasPrefix("\t"), !line.hasPrefix("#") else { return nil }
            let name = line[..<colon]
            return name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) ? String(name) : nil
        })
        var checked = 0
        for (block, command) in shellCommands() where command.first == "make" {
            for target in command.dropFirst() where !target.contains("=") && !target.hasPrefix("-") {
                #expect(targets.contains(target), "\(block): no make target \(target)")
                checked += 1
            }
        }
        #expect(checked >= 10)
    }

    /// Each benchmark script a block runs exists and knows every flag given to it.
    @Test func everyBenchmarkCommandUsesTheScriptsFlags() throws {
        var checked = 0
        for (block, command) in shellCommands() {
            guard let script = command.firstIndex(where: { $0.hasPrefix("benchmarks/") && $0.hasSuffix(".py") }) else { continue }
            let file = Documentation.root.appendingPathComponent(command[script])
            let source = try String(contentsOf: file, encoding: .utf8)
            for flag in command[(script + 1)...] where flag.hasPrefix("--") {
                let name = String(flag.split(separator: "=")[0])
                #expect(source.contains("\"\(name)\""), "\(block): \(command[script]) has no \(name)")
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

    /// The shell blocks' commands, one per pipeline stage or `&&` part, as words (comments,
    /// `sudo`, `env` assignments and `xvfb-run` options dropped; continuation lines joined).
    private func shellCommands() -> [(Documentation.CodeBlock, [String])] {
        documentation.codeBlocks.filter { $0.language == "sh" }.flatMap { block in
            block.text.replacingOccurrences(of: "\\\n", with: " ").split(separator: "\n").flatMap { line in
                let code = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
                return code.split(separator: "|").flatMap { $0.components(separatedBy: "&&") }.map { part in
                    (block, words(of: part))
                }
            }
        }
    }

    private func words(of command: some StringProtocol) -> [String] {
        var words = shellWords(command)
        while let first = words.first, first == "sudo" || first == "env" || first.contains("=") && !first.hasPrefix("-") {
            words.removeFirst()
            while first == "env", words.first == "-u" { words.removeFirst(min(2, words.count)) }
        }
        if words.first == "xvfb-run" {
            words.removeFirst()
            while let first = words.first, first.hasPrefix("-") {
                words.removeFirst()
                if first == "-s" || first == "-n" { words.removeFirst(min(1, words.count)) }   // their values
            }
        }
        if words.first == "python3" { words.removeFirst() }
        return words
    }

    /// Words as the shell splits them: quotes keep spaces and are removed.
    private func shellWords(_ text: some StringProtocol) -> [String] {
        var words: [String] = [], current = "", quote: Character?, inWord = false
        for character in text {
            if let open = quote {
                if character == open { quote = nil } else { current.append(character) }
            } else if character == "'" || character == "\"" {
                quote = character; inWord = true
            } else if character == " " || character == "\t" {
                if inWord { words.append(current); current = ""; inWord = false }
            } else {
                current.append(character); inWord = true
            }
        }
        if inWord { words.append(current) }
        return words
    }
}
