/// One key of a configuration file as its documentation and the command line show it, read
/// from its declaration (`ConfigOptions`): the manual `vitrine.toml(5)` lists them all, and
/// the `open` command's options are generated from those with a flag.
public struct ConfigKeyDescription: Sendable, Equatable {
    /// How a key appears in a file.
    public enum Form: Sendable, Equatable {
        /// `key = value`.
        case value
        /// `[key]`: a table of further keys.
        case table
        /// `[[key]]`: an array of tables.
        case arrayOfTables
        /// Read by its own rules (the README shows them).
        case structured
    }

    /// How its flag takes a value on the command line.
    public enum FlagForm: Sendable, Equatable {
        /// `--flag` / `--no-flag`.
        case toggle
        /// `--flag <valueName>`.
        case value(valueName: String)
        /// `--flag <valueName>`, repeatable; the values add up.
        case repeated(valueName: String)
    }

    /// The dotted key: `window.width`.
    public let key: String
    public let form: Form
    /// The long flag without `--` (`width`); nil: set only in a file.
    public let flag: String?
    public let flagForm: FlagForm?
    /// What a value must be (`a positive integer`); nil for tables.
    public let expectation: String?
    /// What the key does.
    public let doc: String
    /// TOML lines that set it (`[window]` then `width = 1`); nil for tables.
    public let example: String?
    /// A pushed configuration may not change it.
    public let isLocalOnly: Bool

    /// The key as a file writes it: `window.width`, `[window]`, `[[schedule.playlist]]`.
    public var written: String {
        switch form {
        case .value, .structured: key
        case .table: "[" + key + "]"
        case .arrayOfTables: "[[" + key + "]]"
        }
    }
}

extension ConfigFile {
    /// Every key a configuration file may have, in the order messages list them.
    public static var keyDescriptions: [ConfigKeyDescription] { ConfigOptions.all.map(ConfigKeyDescription.init) }

    /// The keys with a command-line flag, in declaration order.
    public static var flagDescriptions: [ConfigKeyDescription] { keyDescriptions.filter { $0.flag != nil } }
}

extension ConfigKeyDescription {
    init(_ option: ConfigOption) {
        key = option.key
        doc = option.doc
        isLocalOnly = option.isLocalOnly
        flag = option.flag
        switch option.kind {
        case .value(let type):
            form = .value
            expectation = type.expectation
            example = (option.writtenExample ?? type.example).map { value in
                // A table keyed by origin: its lines follow its own header.
                if case .originGrants = type { return "[\(option.key)]\n\(value)" }
                let assignment = "\(option.name) = \(value)"
                return option.parent.isEmpty ? assignment : "\(Self.tableHeader(of: option))\n\(assignment)"
            }
            flagForm = option.flag.map { flag in
                switch type {
                case .bool: .toggle
                case .origins: .repeated(valueName: type.valueName ?? flag)
                default: .value(valueName: type.valueName ?? flag)
                }
            }
        case .section:
            form = .table
            expectation = nil
            example = nil
            flagForm = nil
        case .tables:
            form = .arrayOfTables
            expectation = nil
            example = nil
            flagForm = nil
        case .structured:
            // Written out whole: their tables and arrays have no one `name = value` line.
            form = .structured
            expectation = option.writtenType
            example = option.writtenExample
            flagForm = nil
        }
    }

    /// The headers a key is written under: `[window]`, or for a key of an array of tables
    /// each enclosing array's header too (`[[displays]]` then `[[displays.playlist]]`), so
    /// that the lines are a file TOML reads as the key's place.
    private static func tableHeader(of option: ConfigOption) -> String {
        guard let parent = ConfigOptions.option(option.parent), case .tables = parent.kind else { return "[\(option.parent)]" }
        var headers: [String] = []
        var enclosing: ConfigOption? = parent
        while let table = enclosing {
            if case .tables = table.kind { headers.insert("[[\(table.key)]]", at: 0) }
            enclosing = table.parent.isEmpty ? nil : ConfigOptions.option(table.parent)
        }
        return headers.joined(separator: "\n")
    }
}
