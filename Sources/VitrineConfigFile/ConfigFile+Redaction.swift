#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import TOMLKit
import Vitrine

extension ConfigFile {
    /// What a secret's value becomes in a redacted configuration.
    public static let redactedMark = Redaction.mark

    /// `text` (a configuration file) as a support bundle carries it: every value of an
    /// option declared secret (`ConfigOption.secret`) — password files, the upload URL —
    /// replaced by `<redacted>`, and the password of any URL (`http://user:pass@proxy`)
    /// too. The document is written afresh from its values, so comments (which may hold
    /// an old password) are gone. Text that is not TOML yields nil: nothing of it is shown.
    public static func redacted(_ text: String) -> String? {
        guard let root = try? TOMLTable(string: text) else { return nil }
        return redactedTable(root, at: []).convert(to: .toml)
    }

    private static func redactedTable(_ table: TOMLTable, at path: [String]) -> TOMLTable {
        let copy = TOMLTable(inline: table.inline)
        for key in table.keys {
            guard let value = table[key] else { continue }
            copy[key] = isSecret(path + [key]) ? redactedMark : redactedValue(value, at: path + [key])
        }
        return copy
    }

    private static func redactedValue(_ value: TOMLValueConvertible, at path: [String]) -> TOMLValueConvertible {
        if let table = value.table { return redactedTable(table, at: path) }
        if let array = value.array {
            // Array elements share their key's path: `network.credentials.password-file`.
            return TOMLArray((0..<array.count).map { redactedValue(array[$0], at: path) })
        }
        if let string = value.string { return Redaction.withoutURLPassword(string) }
        return value
    }

    /// Whether the key at `path` (array indices left out) is declared secret, itself or as
    /// a field of a structured table.
    private static func isSecret(_ path: [String]) -> Bool {
        if ConfigOptions.option(path.joined(separator: "."))?.isSecret == true { return true }
        guard path.count > 1, let table = ConfigOptions.option(path.dropLast().joined(separator: ".")) else { return false }
        return table.secretFields.contains(path[path.count - 1])
    }
}
