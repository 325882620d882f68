#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine
internal import TOMLKit

/// Parses a configuration file's TOML and turns it into `ConfigSettings`, checking every
/// key against the schema. Problems are collected (with their positions) rather than thrown one by one,
/// so a file with several mistakes reports them all, in document order.
/// How messages show keys and values, and the checks on URL text.
extension ConfigFileDecoder {
    /// `navigation.handlers[1].type`; keys that are not bare are quoted.
    func display(_ path: Path) -> String {
        var text = ""
        for component in path {
            switch component {
            case .index(let index): text += "[\(index)]"
            case .key(let key):
                if !text.isEmpty { text += "." }
                let bare = !key.isEmpty && key.unicodeScalars.allSatisfy {
                    ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "_"
                }
                text += bare ? key : Self.quoted(key)
            }
        }
        return text
    }

    /// A value as messages show it: scalars as written in TOML, containers by kind.
    static func describe(_ value: TOMLValueConvertible) -> String {
        switch value.type {
        case .string: return quoted(value.string ?? "")
        case .int: return value.int.map(String.init) ?? "an integer"
        case .double: return value.double.map { "\($0)" } ?? "a number"
        case .bool: return value.bool.map { $0 ? "true" : "false" } ?? "a boolean"
        case .array: return "an array"
        case .table: return "a table"
        case .date: return "a date"
        case .time: return "a time"
        case .dateTime: return "a date-time"
        }
    }

    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    static func list(_ names: [String]) -> String { names.joined(separator: ", ") }

    /// The allowed key closest to a typo, if it is close enough to be the likely intent.
    static func closest(to key: String, in candidates: [String]) -> String? {
        let scored = candidates.map { ($0, editDistance(key, $0)) }.min { $0.1 < $1.1 }
        guard let (candidate, distance) = scored, distance <= max(1, min(key.count, candidate.count) / 3) else { return nil }
        return candidate
    }

    private static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a.lowercased()), b = Array(b.lowercased())
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }

    static func parseURL(_ text: String) -> URL? {
        guard !text.contains(where: \.isWhitespace), let url = URL(string: text),
              let scheme = url.scheme, isScheme(scheme), text.hasPrefix(scheme + ":")
        else { return nil }
        return url
    }

    /// RFC 3986: a letter, then letters, digits, `+`, `-` or `.`.
    static func isScheme(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, isASCIILetter(first) else { return false }
        return text.unicodeScalars.allSatisfy { isASCIILetter($0) || ("0"..."9").contains($0) || $0 == "+" || $0 == "-" || $0 == "." }
    }

    private static func isASCIILetter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }
}

extension ConfigFileDecoder {
    /// Every key path and array element of `text` that the source map has no position
    /// for: empty when the locator agrees with the parser. Nil when `text` is not TOML.
    /// A self-check for tests.
    static func unlocatedPaths(in text: String) -> [Path]? {
        guard let root = try? TOMLTable(string: text) else { return nil }
        let map = TOMLSourceMap(text)
        var missing: [Path] = []
        func walk(_ value: TOMLValueConvertible, at path: Path) {
            if !path.isEmpty {
                let hasKey = if case .key = path.last { map.keys[path] != nil } else { true }
                if map.values[path] == nil || !hasKey { missing.append(path) }
            }
            if let table = value.table {
                for key in table.keys { walk(table[key]!, at: path + [.key(key)]) }
            } else if let array = value.array {
                for index in 0..<array.count { walk(array[index], at: path + [.index(index)]) }
            }
        }
        walk(root, at: [])
        return missing
    }
}
