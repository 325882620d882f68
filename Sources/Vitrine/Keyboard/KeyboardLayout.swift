#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The character keys of one on-screen keyboard layout (`us`, `de`, `fr`), read from a small
/// JSON file in `Resources/keyboard/`:
///
/// ```json
/// { "name": "us", "rows": [["1", "2"], ["q", "w"], [["'", "\""], ","]] }
/// ```
///
/// A key is a string (shift types its upper case) or a pair `[normal, shifted]`. The
/// special keys (shift, backspace, enter, tab, space, hide) are not in the file: every
/// layout has them in the same places (`KeyboardKey.textRows`).
public struct KeyboardLayout: Sendable, Equatable {
    /// One character key: what it types, unshifted and shifted.
    public struct CharacterKey: Sendable, Equatable {
        public let normal: String
        public let shifted: String

        public init(_ normal: String, shifted: String? = nil) {
            self.normal = normal
            self.shifted = shifted ?? normal.uppercased()
        }
    }

    public let name: String
    public let rows: [[CharacterKey]]

    /// The layouts shipped in `Resources/keyboard/` (`NAME.json`), the values `[keyboard]
    /// layout` accepts.
    public static let shippedNames = ["us", "de", "fr"]
    /// Rows and keys a file may hold: enough for any real layout, few enough that a wrong
    /// file cannot build thousands of buttons.
    public static let maximumRows = 6
    public static let maximumKeysPerRow = 16

    /// Used when a layout file cannot be read or is malformed (the error is reported): the
    /// keyboard stays usable.
    public static let fallback = KeyboardLayout(name: "fallback", rows: [
        "1234567890", "qwertyuiop", "asdfghjkl", "zxcvbnm,.",
    ].map { row in row.map { CharacterKey(String($0)) } })

    public init(name: String, rows: [[CharacterKey]]) {
        self.name = name
        self.rows = rows
    }

    /// Parses a layout file's text; `source` names it in errors (a path).
    public init(json data: Data, source: String) throws(KeyboardLayoutError) {
        let value: JSONValue
        do { value = try JSONValue(parsing: String(decoding: data, as: UTF8.self)) } catch {
            throw KeyboardLayoutError(source: source, problem: "is not valid JSON")
        }
        guard case .object(let table) = value else {
            throw KeyboardLayoutError(source: source, problem: #"must be a JSON object with "name" and "rows""#)
        }
        guard let name = table["name"]?.stringValue, !name.isEmpty else {
            throw KeyboardLayoutError(source: source, problem: #""name" must be a non-empty string"#)
        }
        guard case .array(let rows)? = table["rows"], !rows.isEmpty, rows.count <= Self.maximumRows else {
            throw KeyboardLayoutError(source: source, problem: #""rows" must be an array of 1 to \#(Self.maximumRows) rows"#)
        }
        var parsed: [[CharacterKey]] = []
        for (rowIndex, row) in rows.enumerated() {
            guard case .array(let keys) = row, !keys.isEmpty, keys.count <= Self.maximumKeysPerRow else {
                throw KeyboardLayoutError(source: source,
                                          problem: "row \(rowIndex + 1) must be an array of 1 to \(Self.maximumKeysPerRow) keys")
            }
            var parsedRow: [CharacterKey] = []
            for (keyIndex, key) in keys.enumerated() {
                guard let parsedKey = Self.characterKey(key) else {
                    throw KeyboardLayoutError(source: source, problem: "row \(rowIndex + 1), key \(keyIndex + 1): "
                        + #"expected a character such as "a" or a pair such as ["1", "!"], got \#(key.jsonText)"#)
                }
                parsedRow.append(parsedKey)
            }
            parsed.append(parsedRow)
        }
        self.init(name: name, rows: parsed)
    }

    /// A key from `"a"` or `["1", "!"]`; each text a short visible one such as "ß" (up to 4
    /// characters, no control characters, not only spaces).
    private static func characterKey(_ value: JSONValue) -> CharacterKey? {
        if let text = value.stringValue, isKeyText(text) { return CharacterKey(text) }
        if case .array(let pair) = value, pair.count == 2, let normal = pair[0].stringValue, let shifted = pair[1].stringValue,
           isKeyText(normal), isKeyText(shifted) {
            return CharacterKey(normal, shifted: shifted)
        }
        return nil
    }

    private static func isKeyText(_ text: String) -> Bool {
        (1...4).contains(text.count) && !text.unicodeScalars.contains { $0.properties.generalCategory == .control }
            && !text.allSatisfy(\.isWhitespace)
    }
}

extension KeyboardLayout {
    /// Reads layout `name` from `directory` (`NAME.json`); a missing or malformed file is
    /// an error naming the file.
    public static func load(_ name: String, from directory: URL) throws(KeyboardLayoutError) -> KeyboardLayout {
        let file = directory.appendingPathComponent("\(name).json")
        guard let data = try? Data(contentsOf: file) else {
            throw KeyboardLayoutError(source: file.path, problem: "cannot be read")
        }
        return try KeyboardLayout(json: data, source: file.path)
    }
}
