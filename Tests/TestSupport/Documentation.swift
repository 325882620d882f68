import Foundation

/// The repository's Markdown documents (README, HACKING, docs/, benchmarks/README.md) and
/// what the documentation tests read from them: links and fenced code blocks.
public struct Documentation: Sendable {
    public struct Document: Sendable {
        /// Relative to the package root: `docs/kiosk/fleets.md`.
        public let path: String
        public let text: String
    }

    public struct CodeBlock: Sendable, CustomStringConvertible {
        public let document: String
        /// The line of the opening fence, from 1.
        public let line: Int
        /// What follows the opening fence: `toml`, `sh`, `js`, or empty.
        public let language: String
        public let text: String
        public var description: String { "\(document):\(line) (\(language.isEmpty ? "text" : language))" }
    }

    public struct Link: Sendable, CustomStringConvertible {
        public let document: String
        public let line: Int
        public let target: String
        public var description: String { "\(document):\(line): (\(target))" }
    }

    /// The package's root, from this file's place in <root>/Tests/TestSupport.
    public static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    public let documents: [Document]

    public init(root: URL = Documentation.root) throws {
        var paths = ["README.md", "HACKING.md", "benchmarks/README.md"]
        let docs = root.appendingPathComponent("docs")
        if let walker = FileManager.default.enumerator(atPath: docs.path) {
            for case let relative as String in walker where relative.hasSuffix(".md") {
                paths.append("docs/" + relative)
            }
        }
        documents = try paths.sorted().map {
            Document(path: $0, text: try String(contentsOf: root.appendingPathComponent($0), encoding: .utf8))
        }
    }

    public func document(_ path: String) -> Document? { documents.first { $0.path == path } }

    /// Every document's text, one after the other (to ask whether anything documents a name).
    public var allText: String { documents.map(\.text).joined(separator: "\n") }

    public var codeBlocks: [CodeBlock] {
        documents.flatMap { document -> [CodeBlock] in
            var blocks: [CodeBlock] = []
            var open: (line: Int, language: String, lines: [String])?
            for (index, line) in document.text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if trimmed.hasPrefix("```") {
                    if let current = open {
                        blocks.append(CodeBlock(document: document.path, line: current.line, language: current.language,
                                                text: current.lines.joined(separator: "\n")))
                        open = nil
                    } else {
                        open = (index + 1, String(trimmed.dropFirst(3)).trimmingCharacters(in: .whitespaces), [])
                    }
                } else if open != nil {
                    open!.lines.append(String(line))
                }
            }
            return blocks
        }
    }

    /// Links to other files or anchors (`[text](target)`), outside code blocks; web links left out.
    public var relativeLinks: [Link] {
        documents.flatMap { document -> [Link] in
            var links: [Link] = [], fenced = false
            for (index, line) in document.text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") { fenced.toggle(); continue }
                if fenced { continue }
                for match in line.matches(of: /\]\(([^)\s]+)\)/) {
                    let target = String(match.1)
                    if target.contains("://") || target.hasPrefix("mailto:") { continue }
                    links.append(Link(document: document.path, line: index + 1, target: target))
                }
            }
            return links
        }
    }

    /// The anchors a code host makes for `document`'s headings: lower case, punctuation
    /// dropped, spaces as hyphens.
    public static func anchors(of text: String) -> Set<String> {
        var anchors = Set<String>(), fenced = false
        for line in text.split(separator: "\n") {
            if line.hasPrefix("```") { fenced.toggle(); continue }
            guard !fenced, line.hasPrefix("#") else { continue }
            let heading = line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces)
            let slug = heading.lowercased().compactMap { character -> String? in
                if character.isLetter || character.isNumber || character == "-" || character == "_" { return String(character) }
                if character == " " { return "-" }
                return nil
            }.joined()
            anchors.insert(slug)
        }
        return anchors
    }
}
