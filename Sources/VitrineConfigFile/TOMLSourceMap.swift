#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

/// Where each key and value of a TOML document is written: line and column, by key path.
///
/// TOMLKit reports positions only for syntax errors, not for the values it returns, so a
/// configuration error ("window.width must be a positive integer") finds its position
/// here. (toml++ keeps a `source()` region on every node, but TOMLKit 0.6's C layer, CTOML,
/// passes one on only in `CTOMLParseError`: no node or key accessor returns it, and the
/// C++ header is not importable from Swift through that module. Reading the positions
/// would mean patching TOMLKit.) The map is built by a small scanner run on text the TOML parser has already
/// accepted: it follows table headers (`[a.b]`), arrays of tables (`[[a.b]]`, numbered
/// per parent), dotted keys, quoted keys, inline tables and arrays (each element gets
/// its index), and skips strings of all four kinds and comments. On text that is not
/// valid TOML it still terminates, with a partial map.
///
/// Lines and columns are 1-based; columns count Unicode scalars, as toml++ does.
struct TOMLSourceMap: Sendable {
    struct Position: Hashable, Comparable, Sendable, CustomStringConvertible {
        var line: Int
        var column: Int

        static func < (a: Position, b: Position) -> Bool { (a.line, a.column) < (b.line, b.column) }
        static let start = Position(line: 1, column: 1)
        var description: String { "\(line):\(column)" }
    }

    /// One step of a key path: a table key or an array index.
    enum Component: Hashable, Sendable {
        case key(String)
        case index(Int)
    }

    typealias Path = [Component]

    /// Where the key that names a path is written (for a path through headers and dotted
    /// keys, its first appearance). Array elements have no key.
    private(set) var keys: [Path: Position] = [:]
    /// Where the value at a path starts: the first character of a value, the `[` of a table
    /// header, the `{` of an inline table, or (for a table made implicitly by a dotted key
    /// or a longer header) the key that made it.
    private(set) var values: [Path: Position] = [:]

    init(_ text: String) {
        var scanner = Scanner(text)
        scanner.scanDocument()
        keys = scanner.keys
        values = scanner.values
    }

    /// Where to point at a problem with the value at `path`: its value, else its key, else
    /// the nearest enclosing value, else the start of the document.
    func position(ofValue path: Path) -> Position {
        var path = path
        while !path.isEmpty {
            if let position = values[path] ?? keys[path] { return position }
            path.removeLast()
        }
        return .start
    }

    /// Where the value at `path` is written (else its key), or nil when the document does
    /// not write it: a problem with a value the file did not give has no place in it.
    func position(ofWritten path: Path) -> Position? {
        values[path] ?? keys[path]
    }

    /// Where to point at a problem with the key at `path` (an unknown key): the key, else
    /// where its value starts.
    func position(ofKey path: Path) -> Position {
        keys[path] ?? position(ofValue: path)
    }
}

// MARK: - The scanner

extension TOMLSourceMap {
    private struct Scanner {
        typealias Position = TOMLSourceMap.Position

        private let scalars: [Unicode.Scalar]
        private var index = 0
        private var line = 1
        private var column = 1

        var keys: [Path: Position] = [:]
        var values: [Path: Position] = [:]
        /// How many `[[…]]` headers each array of tables has had so far.
        private var arrayTableCounts: [Path: Int] = [:]
        /// The table the key/value lines belong to: the last header's.
        private var currentTable: Path = []

        init(_ text: String) {
            scalars = Array(text.unicodeScalars)
            if scalars.first == "\u{FEFF}" { index = 1 }  // a byte-order mark takes no column
        }

        // MARK: Document structure

        mutating func scanDocument() {
            while true {
                skipWhitespaceNewlinesAndComments()
                guard let character = peek() else { return }
                if character == "[" {
                    scanHeader()
                } else {
                    scanKeyValue(in: currentTable)
                }
                skipToEndOfLine()
            }
        }

        /// `[a.b]` or `[[a.b]]`.
        private mutating func scanHeader() {
            let start = position
            advance()
            let isArray = peek() == "["
            if isArray { advance() }
            let parts = scanKey()
            skipWhitespace()
            if peek() == "]" { advance() }
            if isArray, peek() == "]" { advance() }
            guard !parts.isEmpty else { return }

            var path: Path = []
            for (offset, part) in parts.enumerated() {
                path.append(.key(part.name))
                let isLast = offset == parts.count - 1
                if keys[path] == nil { keys[path] = part.position }
                if !isLast {
                    if values[path] == nil { values[path] = part.position }
                    // A header through an array of tables extends its latest element.
                    if let count = arrayTableCounts[path] { path.append(.index(count - 1)) }
                } else if isArray {
                    if values[path] == nil { values[path] = start }
                    let count = arrayTableCounts[path, default: 0]
                    arrayTableCounts[path] = count + 1
                    path.append(.index(count))
                    keys[path] = part.position
                    values[path] = start
                } else {
                    values[path] = start
                }
            }
            currentTable = path
        }

        /// `a.b = value`, relative to `table`.
        private mutating func scanKeyValue(in table: Path) {
            let parts = scanKey()
            guard !parts.isEmpty else { return }
            var path = table
            for (offset, part) in parts.enumerated() {
                path.append(.key(part.name))
                if keys[path] == nil { keys[path] = part.position }
                if offset < parts.count - 1, values[path] == nil { values[path] = part.position }
            }
            skipWhitespace()
            guard peek() == "=" else { return }
            advance()
            skipWhitespace()
            scanValue(at: path)
        }

        private mutating func scanValue(at path: Path) {
            guard let character = peek() else { return }
            values[path] = position
            switch character {
            case "\"":
                if peek(1) == "\"" && peek(2) == "\"" { skipMultilineString(quote: "\"") } else { _ = scanBasicString() }
            case "'":
                if peek(1) == "'" && peek(2) == "'" { skipMultilineString(quote: "'") } else { _ = scanLiteralString() }
            case "[":
                advance()
                var element = 0
                while true {
                    skipWhitespaceNewlinesAndComments()
                    guard let next = peek() else { return }
                    if next == "]" { advance(); return }
                    if next == "," { advance(); continue }
                    let before = index
                    scanValue(at: path + [.index(element)])
                    element += 1
                    if index == before { advance() }
                }
            case "{":
                advance()
                while true {
                    skipWhitespaceNewlinesAndComments()
                    guard let next = peek() else { return }
                    if next == "}" { advance(); return }
                    if next == "," { advance(); continue }
                    let before = index
                    scanKeyValue(in: path)
                    if index == before { advance() }
                }
            default:
                // A number, boolean or date (which may hold a space: `1979-05-27 07:32:00`).
                while let next = peek(), !",]}#\n".unicodeScalars.contains(next) { advance() }
            }
        }

        // MARK: Keys

        /// A dotted key: its parts, unquoted, each with where it is written.
        private mutating func scanKey() -> [(name: String, position: Position)] {
            var parts: [(name: String, position: Position)] = []
            while true {
                skipWhitespace()
                let start = position
                guard let name = scanSimpleKey() else { break }
                parts.append((name, start))
                skipWhitespace()
                guard peek() == "." else { break }
                advance()
            }
            return parts
        }

        private mutating func scanSimpleKey() -> String? {
            switch peek() {
            case "\"": return scanBasicString()
            case "'": return scanLiteralString()
            default:
                var name = ""
                while let character = peek(), Self.isBareKeyCharacter(character) {
                    name.unicodeScalars.append(character)
                    advance()
                }
                return name.isEmpty ? nil : name
            }
        }

        private static func isBareKeyCharacter(_ character: Unicode.Scalar) -> Bool {
            switch character {
            case "A"..."Z", "a"..."z", "0"..."9", "_", "-": return true
            default: return false
            }
        }

        // MARK: Strings

        /// `"…"` with its escapes decoded (keys must match what the parser stored).
        private mutating func scanBasicString() -> String {
            advance()
            var text = ""
            while let character = peek(), character != "\"", character != "\n" {
                advance()
                guard character == "\\" else {
                    text.unicodeScalars.append(character)
                    continue
                }
                guard let escape = peek() else { break }
                advance()
                switch escape {
                case "b": text += "\u{08}"
                case "t": text += "\t"
                case "n": text += "\n"
                case "f": text += "\u{0C}"
                case "r": text += "\r"
                case "e": text += "\u{1B}"
                case "u", "U":
                    var hex = ""
                    for _ in 0..<(escape == "u" ? 4 : 8) {
                        guard let digit = peek(), digit.properties.isASCIIHexDigit else { break }
                        hex.unicodeScalars.append(digit)
                        advance()
                    }
                    if let value = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(value) {
                        text.unicodeScalars.append(scalar)
                    }
                default: text.unicodeScalars.append(escape)
                }
            }
            if peek() == "\"" { advance() }
            return text
        }

        /// `'…'`: no escapes.
        private mutating func scanLiteralString() -> String {
            advance()
            var text = ""
            while let character = peek(), character != "'", character != "\n" {
                text.unicodeScalars.append(character)
                advance()
            }
            if peek() == "'" { advance() }
            return text
        }

        /// `"""…"""` or `'''…'''`, which may span lines and end with up to two more quotes.
        private mutating func skipMultilineString(quote: Unicode.Scalar) {
            advance(3)
            while let character = peek() {
                if character == quote, peek(1) == quote, peek(2) == quote {
                    advance(3)
                    for _ in 0..<2 where peek() == quote { advance() }
                    return
                }
                advance()
                if character == "\\", quote == "\"", peek() != nil { advance() }
            }
        }

        // MARK: Whitespace, comments, position

        private var position: Position { Position(line: line, column: column) }

        private func peek(_ offset: Int = 0) -> Unicode.Scalar? {
            index + offset < scalars.count ? scalars[index + offset] : nil
        }

        private mutating func advance(_ count: Int = 1) {
            for _ in 0..<count where index < scalars.count {
                if scalars[index] == "\n" {
                    line += 1
                    column = 1
                } else {
                    column += 1
                }
                index += 1
            }
        }

        private mutating func skipWhitespace() {
            while let character = peek(), character == " " || character == "\t" || character == "\r" { advance() }
        }

        private mutating func skipWhitespaceNewlinesAndComments() {
            while let character = peek() {
                switch character {
                case " ", "\t", "\r", "\n": advance()
                case "#": skipToEndOfLine()
                default: return
                }
            }
        }

        /// Up to (not past) the next line break.
        private mutating func skipToEndOfLine() {
            while let character = peek(), character != "\n" { advance() }
        }
    }
}
