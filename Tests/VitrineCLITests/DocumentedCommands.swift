import Foundation
import VitrineTestSupport

/// The commands the documentation gives, as words: every line of its `sh` blocks (one command
/// per pipeline stage, `&&` or `;` part, and per `$(…)` inside it) and every inline code span
/// that starts with one of `programs` (`vitrine ctl reload`, `make reference`). Comments,
/// `sudo`, `env` assignments and `xvfb-run` options are dropped; continuation lines joined.
struct DocumentedCommands {
    struct Command: CustomStringConvertible {
        let place: String
        let words: [String]
        var description: String { place }
    }

    let all: [Command]

    init(_ documentation: Documentation, inlineFor programs: Set<String>) {
        var commands: [Command] = []
        for block in documentation.codeBlocks where block.language == "sh" {
            for line in block.text.replacingOccurrences(of: "\\\n", with: " ").split(separator: "\n") {
                let code = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
                commands += Self.commands(in: String(code)).map { Command(place: "\(block)", words: $0) }
            }
        }
        for (place, span) in Self.inlineSpans(documentation) {
            // A program's own message (`vitrine dev: built: restarting`) is not a command.
            if span.hasPrefix("vitrine:") || span.split(separator: " ").dropFirst().first?.hasSuffix(":") == true { continue }
            for words in Self.commands(in: span) where words.first.map(programs.contains) == true {
                commands.append(Command(place: place + " `\(span)`", words: words))
            }
        }
        all = commands
    }

    /// Inline code spans outside fenced blocks, with their document and line.
    private static func inlineSpans(_ documentation: Documentation) -> [(String, String)] {
        documentation.documents.flatMap { document -> [(String, String)] in
            var spans: [(String, String)] = [], fenced = false
            for (index, line) in document.text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") { fenced.toggle(); continue }
                if fenced { continue }
                for match in line.matches(of: /`([^`]+)`/) {
                    spans.append(("\(document.path):\(index + 1)", String(match.1)))
                }
            }
            return spans
        }
    }

    /// The commands of one line: its `$(…)` substitutions, then its parts split at `|`, `&&`
    /// and `;`, each as the shell's words.
    static func commands(in line: String) -> [[String]] {
        var outer = line, inner: [[String]] = []
        while let range = outer.firstRange(of: /\$\(([^()]*)\)/) {
            inner += commands(in: String(outer[range].dropFirst(2).dropLast()))
            outer.replaceSubrange(range, with: "SUBSTITUTED")
        }
        var parts: [String] = []
        for stage in outer.split(separator: "|") {
            for part in stage.components(separatedBy: "&&") {
                parts += part.split(separator: ";").map(String.init)
            }
        }
        return inner + parts.map { words(of: $0) }.filter { !$0.isEmpty }
    }

    private static func words(of command: some StringProtocol) -> [String] {
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
    private static func shellWords(_ text: some StringProtocol) -> [String] {
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

/// The built `vitrine`'s commands, learnt from its `--help` at any depth: which words name a
/// subcommand (`fleet push`), and each command's help (its flags).
final class VitrineCommandTree {
    private var helps: [[String]: String?] = [:]
    private let run: ([String]) throws -> (status: Int32, stdout: String, stderr: String)

    init(run: @escaping ([String]) throws -> (status: Int32, stdout: String, stderr: String)) { self.run = run }

    /// The help of the command `path` names, or nil when it names none: its USAGE line must
    /// start with `vitrine` and the path (a default subcommand would otherwise answer for a
    /// word it takes as its argument). Hidden subcommands (`generate`) count.
    func help(_ path: [String]) throws -> String? {
        if let known = helps[path] { return known }
        let result = try run(path + ["--help"])
        // The default subcommand's is `vitrine [open] [<url>]`: brackets dropped.
        let usage = (result.stdout.split(separator: "\n").first { $0.hasPrefix("USAGE:") }.map(String.init) ?? "")
            .filter { $0 != "[" && $0 != "]" }
        let names = result.status == 0 && (usage + " ").hasPrefix((["USAGE: vitrine"] + path).joined(separator: " ") + " ")
        helps[path] = names ? result.stdout : nil
        return names ? result.stdout : nil
    }

    /// The subcommands the command at `path` lists.
    func subcommands(_ path: [String]) throws -> [String] {
        guard let help = try help(path) else { return [] }
        return help.split(separator: "\n").drop { !$0.hasPrefix("SUBCOMMANDS") }.dropFirst()
            .prefix { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
            .filter { $0.hasPrefix("  ") && !$0.hasPrefix("   ") }
            .compactMap { $0.split(separator: " ").first.map(String.init) }
            .filter { $0.first?.isLowercase == true }   // not "See 'vitrine help …'"
    }
}
