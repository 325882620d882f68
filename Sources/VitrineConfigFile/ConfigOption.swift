#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

/// One configuration option, declared once in `ConfigOptions.all`: its TOML key, its
/// command-line flag (if any), its type and rule, a one-line doc, and how its value
/// refines a `Configurator`. The decoder, the command line's checks, the allowed-keys
/// lists (and their "did you mean") and `check-config`'s summary are all read from it.
struct ConfigOption: Sendable {
    /// How the option appears in the file.
    enum Kind: Sendable {
        /// A single value, read and checked by its type.
        case value(OptionType)
        /// A table of further options (`[window]`); present, it may refine by itself.
        case section
        /// An array of tables (`[[schedule.playlist]]`) whose keys are options declared
        /// under this one's key (`schedule.playlist.url`); its value is `.entries`, one
        /// dictionary per table, by key within the table. `required` keys must be in every
        /// table; `check` judges a table as a whole (nil: sound) once its values are.
        case tables(required: [String], check: @Sendable ([String: OptionValue]) -> String?)
        /// Read by hand (`ConfigFileDecoder+Sections.swift`): arrays of tables, free keys.
        case structured
    }

    /// The dotted key path: `title`, `window.width`.
    let key: String
    /// The long flag without `--`: `width`. Nil: set only in a file.
    let flag: String?
    let kind: Kind
    let doc: String
    /// How a value refines the configurator; nil for the few options `ConfigAssembly`
    /// applies itself (those that pick the preset and the start page).
    let apply: (@Sendable (Configurator, OptionValue) -> Configurator)?
    /// A line of `check-config`'s summary: its label, and its text for a built configuration
    /// (nil: no line).
    var summary: (label: String, text: @Sendable (Configuration, Preset) -> String?)?
    /// Its effective value in a built configuration (of a preset) as a script reads it:
    /// `check-config --print KEY` and the reference's defaults. A list is one item a line;
    /// a nil result: unset (the run decides, or the feature is off). Nil: a table that only
    /// groups keys, with no value of its own.
    var printed: (@Sendable (Configuration, Preset) -> String?)?
    /// What a structured key's value is, for the manual (a value key's is its type's).
    var writtenType: String?
    /// For a table that is off until a key of it is set (`[remote.mqtt]` and `broker`): that key,
    /// whose example the reference sets to show the table's other defaults.
    var enablingKey: String?
    /// Set only on the kiosk itself: a pushed configuration may not change it (paths are
    /// kept from pushes by their type, see `ConfigFile.checkPush`).
    var isLocalOnly = false
    /// Its value is a secret (or names one): a support bundle's copy of the configuration
    /// shows `<redacted>` instead (`ConfigFile.redacted`).
    var isSecret = false
    /// For a structured table (`[[network.credentials]]`): its keys whose values are secret.
    var secretFields: Set<String> = []
    /// A value as written in a file (`"Lobby"`, `30`), for the manual; nil: the type's own
    /// (`OptionType.example`).
    var writtenExample: String?

    /// The table that holds the key (`window`; empty at the top level).
    var parent: String { key.split(separator: ".").dropLast().joined(separator: ".") }
    /// The key within its table (`width`).
    var name: String { String(key.split(separator: ".").last ?? "") }

    var type: OptionType? { if case .value(let type) = kind { type } else { nil } }
}

/// A value read from a file or the command line, already checked by its option's type.
enum OptionValue: Sendable, Equatable {
    case bool(Bool)
    case string(String)
    case int(Int)
    case duration(Duration)
    case url(URL)
    case origins([Origin])
    case time(TimeOfDay)
    case times([TimeOfDay])
    case weekdays(Set<Weekday>)
    case monitor(MonitorSelector)
    case zoneLength(ZoneLength)
    /// An array of tables' values, one dictionary per table (see `Kind.tables`).
    case entries([[String: OptionValue]])
    /// A table of origin = names (`[capabilities]`, `[permissions]`), in the order written.
    case grants([OriginGrant])
    case strings([String])

    var bool: Bool? { if case .bool(let bool) = self { bool } else { nil } }
    var string: String? { if case .string(let string) = self { string } else { nil } }
    var int: Int? { if case .int(let int) = self { int } else { nil } }
    var duration: Duration? { if case .duration(let duration) = self { duration } else { nil } }
    var url: URL? { if case .url(let url) = self { url } else { nil } }
    var origins: [Origin]? { if case .origins(let origins) = self { origins } else { nil } }
    var time: TimeOfDay? { if case .time(let time) = self { time } else { nil } }
    var times: [TimeOfDay]? { if case .times(let times) = self { times } else { nil } }
    var weekdays: Set<Weekday>? { if case .weekdays(let days) = self { days } else { nil } }
    var monitor: MonitorSelector? { if case .monitor(let monitor) = self { monitor } else { nil } }
    var zoneLength: ZoneLength? { if case .zoneLength(let length) = self { length } else { nil } }
    var entries: [[String: OptionValue]]? { if case .entries(let entries) = self { entries } else { nil } }
    var grants: [OriginGrant]? { if case .grants(let grants) = self { grants } else { nil } }
    var strings: [String]? { if case .strings(let strings) = self { strings } else { nil } }
}

/// One key of a table keyed by origin: the origin and the names listed for it.
struct OriginGrant: Sendable, Equatable {
    let origin: Origin
    let names: [String]
}

/// What an option's value is and which values are accepted: one rule, applied to the file
/// (with the file's messages) and to the command line (with the command line's).
enum OptionType: Sendable {
    enum PathKind: Sendable {
        case file, folder
        /// A file Vitrine writes: it need not exist, and its name must end in `suffix`.
        case output(suffix: String, why: String)
    }

    case bool
    /// `refusal` completes the command line's "--flag must …".
    case string(expected: String, refusal: String, where: @Sendable (String) -> Bool)
    /// One of `names`; `where` may accept other spellings of them too.
    case choice([String], where: @Sendable (String) -> Bool)
    case integer(expected: String, refusal: String, where: @Sendable (Int) -> Bool)
    /// A number of seconds, integer or not; `zeroMeaning` says what 0 means, when allowed.
    case seconds(allowsZero: Bool, zeroMeaning: String?)
    /// An absolute URL with a scheme.
    case url
    /// A path; relative paths resolve against the file's folder. Nil kind: need not exist.
    case path(PathKind?)
    case origins
    /// A local time `"HH:MM"`.
    case timeOfDay
    /// An array of local times.
    case timesOfDay
    /// A non-empty array of days: `"mon"` … `"sun"`.
    case weekdays
    /// A monitor: an index from 0, or a connector name.
    case monitor
    /// Pixels (an integer from 0) or a percentage (`"25%"`).
    case zoneLength
    /// A table whose keys are origins and whose values are lists of `names`
    /// (`"app://app" = ["clipboard", "storage"]`).
    case originGrants(names: [String])
    /// An array of distinct strings, each `expected` and accepted by `where`.
    case strings(expected: String, where: @Sendable (String) -> Bool)

    static func choice(_ names: [String]) -> OptionType { .choice(names) { names.contains($0) } }
    static let text = OptionType.string(expected: "a string", refusal: "be a string") { _ in true }
    static let nonEmptyText = OptionType.string(expected: "a non-empty string", refusal: "not be empty") { !$0.isEmpty }
    /// Sent in a header: a line break would start another header.
    static let headerText = OptionType.string(expected: "a non-empty string without control characters",
                                              refusal: "be non-empty text without control characters") {
        !$0.isEmpty && !$0.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }
    static let proxy = OptionType.string(
        expected: #""system" or a proxy URL such as "http://proxy.corp:3128" (scheme \#(NetworkProxy.schemes.joined(separator: ", ")))"#,
        refusal: #"be "system" or a proxy URL (scheme \#(NetworkProxy.schemes.joined(separator: ", ")))"#
    ) { NetworkProxy($0) != nil }
    static let applicationID = OptionType.string(
        expected: #"a reverse-DNS application id such as "org.example.Shop" (two or more elements of ASCII letters, digits, '_' and '-', separated by '.', none starting with a digit; at most 255 bytes)"#,
        refusal: "be a reverse-DNS application id such as org.example.Shop", where: ApplicationID.accepts)
    static let mqttBroker = OptionType.string(
        expected: #"a broker URL such as "mqtts://mqtt.corp:8883" (scheme mqtt or mqtts, no path)"#,
        refusal: "be a broker URL (mqtt:// or mqtts://)"
    ) { MQTTBroker($0) != nil }
    static func topicLevel(levels: Bool) -> OptionType {
        .string(expected: levels ? "topic levels of letters, digits, '-', '_' or '.', separated by '/'"
                                 : "one topic level of letters, digits, '-', '_' or '.'",
                refusal: "be a topic level") { MQTTTopics.isValid($0, allowingLevels: levels) }
    }
    /// Fleet group names: each one topic level, so never a wildcard (`+`, `#`) or a `/`.
    static let topicLevels = OptionType.strings(expected: "one topic level of letters, digits, '-', '_' or '.'") {
        MQTTTopics.isValid($0, allowingLevels: false)
    }

    /// The app's own URL schemes: never one the web or the desktop already uses.
    static let urlSchemes = OptionType.strings(
        expected: "the app's own URL scheme, such as \"myapp\": a lowercase letter, then letters, digits, '+', '-' or '.'; "
            + "not http, https, file, app, about, javascript, data or another the web or the desktop already uses"
    ) { AppURLScheme.problem(with: $0) == nil }

    static let supportUpload = OptionType.string(
        expected: #"an https URL such as "https://support.corp/upload/lobby-1.tar.gz" (http only to 127.0.0.1, ::1 or localhost)"#,
        refusal: "be an https URL (http only to a loopback host)"
    ) { ConfigFileDecoder.parseURL($0).map(SupportArchive.acceptsUpload) ?? false }
    static let reportsUpload = OptionType.string(
        expected: #"an https URL such as "https://reports.example.org/vitrine" (http only to 127.0.0.1, ::1 or localhost)"#,
        refusal: "be an https URL (http only to a loopback host)"
    ) { ConfigFileDecoder.parseURL($0).map(SupportArchive.acceptsUpload) ?? false }
    static let windowLength = OptionType.integer(expected: "a positive integer", refusal: "be positive", where: WindowSize.accepts)

    /// Why `text`, given to `--flag`, is refused (nil: accepted), with the same rule as the file's.
    func commandLineProblem(flag: String, text: String) -> String? {
        switch self {
        case .string(_, let refusal, let isValid):
            isValid(text) ? nil : "--\(flag) must \(refusal)"
        case .integer(_, let refusal, let isValid):
            Int(text).map(isValid) == true ? nil : "--\(flag) must \(refusal), got \(text)"
        case .choice(let names, let isValid):
            isValid(text) ? nil : "unknown \(flag) '\(text)'; expected one of: \(names.joined(separator: ", "))"
        case .path(.folder?):
            FileSystem.isDirectory(text) ? nil : "--\(flag) '\(text)' is not a folder"
        case .path(.file?):
            FileSystem.isRegularFile(text) ? nil : "--\(flag) '\(text)' is not a file"
        case .path(.output(let suffix, let why)?):
            text.hasSuffix(suffix) ? nil : "--\(flag) must name a file ending in \(suffix) (\(why)), got '\(text)'"
        case .origins:
            Origin(serialized: text) != nil ? nil
                : "--\(flag) must be an origin such as https://example.org (scheme://host[:port], no path), got '\(text)'"
        case .url:
            ConfigFileDecoder.parseURL(text) != nil ? nil : "--\(flag) must be an absolute URL with a scheme, got '\(text)'"
        case .bool:
            Bool(text) != nil ? nil : "--\(flag) must be true or false, got '\(text)'"
        case .seconds, .path(nil), .timeOfDay, .timesOfDay, .weekdays, .monitor, .zoneLength, .originGrants, .strings:
            nil  // the file's only
        }
    }
}

// MARK: Declaring options

extension ConfigOption {
    typealias Apply<Value> = @Sendable (Configurator, Value) -> Configurator

    static func bool(_ key: String, flag: String? = nil, _ doc: String, _ apply: @escaping Apply<Bool>) -> ConfigOption {
        ConfigOption(key: key, flag: flag, kind: .value(.bool), doc: doc, apply: applying(apply) { $0.bool })
    }

    /// A string, or one of a few choices.
    static func string(_ key: String, flag: String? = nil, _ type: OptionType, _ doc: String, _ apply: Apply<String>?) -> ConfigOption {
        ConfigOption(key: key, flag: flag, kind: .value(type), doc: doc, apply: applying(apply) { $0.string })
    }

    static func integer(_ key: String, flag: String? = nil, _ type: OptionType, _ doc: String, _ apply: @escaping Apply<Int>) -> ConfigOption {
        ConfigOption(key: key, flag: flag, kind: .value(type), doc: doc, apply: applying(apply) { $0.int })
    }

    static func seconds(_ key: String, allowsZero: Bool, zeroMeaning: String? = nil, _ doc: String,
                        _ apply: @escaping Apply<Duration>) -> ConfigOption {
        let type = OptionType.seconds(allowsZero: allowsZero, zeroMeaning: zeroMeaning)
        return ConfigOption(key: key, flag: nil, kind: .value(type), doc: doc, apply: applying(apply) { $0.duration })
    }

    /// A URL or a path.
    static func url(_ key: String, flag: String? = nil, _ type: OptionType, _ doc: String, _ apply: Apply<URL>?) -> ConfigOption {
        ConfigOption(key: key, flag: flag, kind: .value(type), doc: doc, apply: applying(apply) { $0.url })
    }

    static func origins(_ key: String, flag: String? = nil, _ doc: String, _ apply: @escaping Apply<[Origin]>) -> ConfigOption {
        ConfigOption(key: key, flag: flag, kind: .value(.origins), doc: doc, apply: applying(apply) { $0.origins })
    }

    /// An array of distinct strings of `type` (`.strings`): a file-only option.
    static func strings(_ key: String, _ type: OptionType, _ doc: String, _ apply: @escaping Apply<[String]>) -> ConfigOption {
        ConfigOption(key: key, flag: nil, kind: .value(type), doc: doc, apply: applying(apply) { $0.strings })
    }

    /// A table keyed by origin, each listing some of `names`: a file-only option.
    static func originGrants(_ key: String, names: [String], _ doc: String, _ apply: @escaping Apply<[OriginGrant]>) -> ConfigOption {
        ConfigOption(key: key, flag: nil, kind: .value(.originGrants(names: names)), doc: doc, apply: applying(apply) { $0.grants })
    }

    /// A table of options; `apply` runs when the table is present, before its options.
    static func section(_ key: String, _ doc: String, _ apply: (@Sendable (Configurator) -> Configurator)? = nil) -> ConfigOption {
        guard let apply else { return ConfigOption(key: key, flag: nil, kind: .section, doc: doc, apply: nil) }
        return ConfigOption(key: key, flag: nil, kind: .section, doc: doc) { @Sendable configurator, _ in apply(configurator) }
    }

    /// An array of tables whose keys are declared as options under `key` (`field`s).
    static func tables(_ key: String, required: [String] = [], _ doc: String,
                       check: @escaping @Sendable ([String: OptionValue]) -> String? = { _ in nil },
                       _ apply: @escaping Apply<[[String: OptionValue]]>) -> ConfigOption {
        ConfigOption(key: key, flag: nil, kind: .tables(required: required, check: check), doc: doc,
                     apply: applying(apply) { $0.entries })
    }

    /// A key of each table in an array of tables: its table's `apply` reads it.
    static func field(_ key: String, _ type: OptionType, _ doc: String) -> ConfigOption {
        ConfigOption(key: key, flag: nil, kind: .value(type), doc: doc, apply: nil)
    }

    /// A key read and applied by hand: arrays of tables, tables with free keys.
    static func structured(_ key: String, _ doc: String) -> ConfigOption {
        ConfigOption(key: key, flag: nil, kind: .structured, doc: doc, apply: nil)
    }

    /// A typed `apply` as one that takes any value (its type's, by construction).
    private static func applying<Value>(
        _ apply: Apply<Value>?, _ extract: @escaping @Sendable (OptionValue) -> Value?
    ) -> (@Sendable (Configurator, OptionValue) -> Configurator)? {
        guard let apply else { return nil }
        return { configurator, value in extract(value).map { apply(configurator, $0) } ?? configurator }
    }

    /// Declares the option's effective value in a built configuration (`printed`).
    func printable(_ text: @escaping @Sendable (Configuration) -> String?) -> ConfigOption {
        printable(withPreset: { configuration, _ in text(configuration) })
    }

    /// Declares the option's effective value, for a value the preset decides alone.
    func printable(withPreset text: @escaping @Sendable (Configuration, Preset) -> String?) -> ConfigOption {
        var option = self
        option.printed = text
        return option
    }

    /// Describes a structured key's value and shows `example` (TOML lines) in the manual.
    func written(type: String, example: String) -> ConfigOption {
        var option = self
        option.writtenType = type
        option.writtenExample = example
        return option
    }

    /// Marks a table as off until `key` is set (`enablingKey`).
    func enabled(by key: String) -> ConfigOption {
        var option = self
        option.enablingKey = key
        return option
    }

    /// Keeps the option from pushed configurations (`ConfigFile.checkPush`).
    func localOnly() -> ConfigOption {
        var option = self
        option.isLocalOnly = true
        return option
    }

    /// Marks the value secret (`fields`: only those keys of a structured table's entries).
    func secret(fields: Set<String> = []) -> ConfigOption {
        var option = self
        if fields.isEmpty { option.isSecret = true } else { option.secretFields = fields }
        return option
    }

    /// Shows `text` (TOML, as written in a file) as the option's example in the manual.
    func example(_ text: String) -> ConfigOption {
        var option = self
        option.writtenExample = text
        return option
    }

    /// Adds a line to `check-config`'s summary.
    func summarized(as label: String, _ text: @escaping @Sendable (Configuration, Preset) -> String?) -> ConfigOption {
        var option = self
        option.summary = (label, text)
        return option
    }
}
