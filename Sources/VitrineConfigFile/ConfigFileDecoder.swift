#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine
// TOMLKit is used by the decoder's files only (this one, +Sections, +Text, ConfigHandlers), and no TOMLKit
// type is stored in any Vitrine type or appears in any signature outside them.
internal import TOMLKit

/// Parses a configuration file's TOML and turns it into `ConfigSettings`, checking every
/// key against `ConfigOptions` (the options it declares are read here; the structured ones
/// in `ConfigFileDecoder+Sections.swift`). Problems are collected (with their positions)
/// rather than thrown one by one, so a file with several mistakes reports them all, in
/// document order.
final class ConfigFileDecoder {
    typealias Path = TOMLSourceMap.Path

    private let file: String
    let directory: String
    /// Where each key and value is written; made once the parser has accepted the text
    /// (TOMLKit gives no positions for values: see `TOMLSourceMap`).
    private(set) var map = TOMLSourceMap("")
    private(set) var errors: [ConfigFileError] = []
    /// Whether the file names a download directory (valid or not): a default-allow
    /// handler's `downloads = true` needs one.
    private(set) var downloadsConfigured = false
    /// Every value read as a local path, valid or not, with the table it was read from
    /// (see `ConfigFile+Push.swift`).
    var notedPaths: [(valuePath: Path, resolved: String, table: TOMLTable, tablePath: Path)] = []
    /// False: password files are noted but not opened (a push's paths are judged before
    /// anything they name is read).
    var readsPasswordFiles = true

    /// - Parameters:
    ///   - file: the name messages use.
    ///   - directory: the absolute folder relative paths resolve against.
    init(file: String, directory: String) {
        self.file = file
        self.directory = directory
    }

    /// Parses `text` and decodes it. A TOML syntax error is thrown with the parser's own
    /// position and message; schema problems are collected in `errors`.
    func decode(_ text: String) throws(ConfigFileError) -> ConfigSettings {
        let root: TOMLTable
        do {
            root = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw ConfigFileError(file: file, line: error.source.begin.line, column: error.source.begin.column, message: error.description)
        } catch {
            throw ConfigFileError(file: file, line: nil, column: nil, message: "cannot be parsed as TOML: \(error)")
        }
        map = TOMLSourceMap(text)
        downloadsConfigured = root[ConfigOptions.downloadDirectory.key] != nil
        var settings = ConfigSettings()
        decodeOptions(in: root, at: [], into: &settings)
        return settings
    }

    /// Reads the options `ConfigOptions` declares in the table at `path`, and reports the
    /// keys it declares none for.
    private func decodeOptions(in table: TOMLTable, at path: Path, into settings: inout ConfigSettings) {
        let parent = path.compactMap { if case .key(let key) = $0 { key } else { nil } }.joined(separator: ".")
        let options = ConfigOptions.options(in: parent)
        checkKeys(table, at: path, allowed: options.map(\.name))
        for option in options {
            switch option.kind {
            case .value(let type):
                if let value = read(type, table, option.name, at: path) { settings.values[option.key] = value }
                // Options declared inside a table of origins (`[capabilities] max-windows`).
                if case .originGrants = type, let grants = table[option.name]?.table {
                    for nested in ConfigOptions.options(in: option.key) {
                        if let nestedType = nested.type, let value = read(nestedType, grants, nested.name, at: path + [.key(option.name)]) {
                            settings.values[nested.key] = value
                        }
                    }
                }
            case .section:
                guard let section = self.table(table, option.name, at: path) else { continue }
                settings.sections.insert(option.key)
                let errorsBefore = errors.count
                decodeOptions(in: section, at: path + [.key(option.name)], into: &settings)
                checkSection(option.key, section, at: path + [.key(option.name)], keysAreSound: errors.count == errorsBefore)
            case .tables(let required, let check):
                if let entries = tables(table, option.name, at: path) {
                    let kept = decodeEntries(of: option, entries, required: required, check: check)
                    settings.values[option.key] = .entries(kept.map(\.values))
                    settings.entryPositions[option.key, default: []] += kept.map { (map.position(ofValue: $0.path), display($0.path)) }
                    // Arrays of tables inside these tables (`[[displays.playlist]]`): their
                    // positions too, all of one key in the file's order.
                    for (key, positions) in kept.flatMap(\.nested) { settings.entryPositions[key, default: []] += positions }
                }
            case .structured:
                decodeStructured(option, in: table, at: path, into: &settings)
            }
        }
    }

    /// Each table of an array of tables read by its declared options; a table with any
    /// problem is reported and left out.
    private func decodeEntries(of option: ConfigOption, _ entries: [(TOMLTable, Path)], required: [String],
                               check: ([String: OptionValue]) -> String?)
        -> [(values: [String: OptionValue], path: Path, nested: [(String, [(position: TOMLSourceMap.Position, path: String)])])] {
        entries.compactMap { entry, entryPath in
            let errorsBefore = errors.count
            var fields = ConfigSettings()
            decodeOptions(in: entry, at: entryPath, into: &fields)
            for key in required where entry[key] == nil {
                missing(key, in: entryPath, expected: ConfigOptions.option(option.key + "." + key)?.doc ?? key)
            }
            guard errors.count == errorsBefore else { return nil }
            let values = Dictionary(uniqueKeysWithValues: fields.values.map { (String($0.key.dropFirst(option.key.count + 1)), $0.value) })
            if let problem = check(values) {
                report(at: map.position(ofValue: entryPath), "\(display(entryPath)) \(problem)")
                return nil
            }
            return (values, entryPath, fields.entryPositions.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
        }
    }

    /// A value of `type`, or nil when absent or wrong (then reported).
    private func read(_ type: OptionType, _ table: TOMLTable, _ key: String, at path: Path) -> OptionValue? {
        switch type {
        case .bool:
            bool(table, key, at: path).map(OptionValue.bool)
        case .string(let expected, _, let isValid):
            string(table, key, at: path, expected: expected, where: isValid).map(OptionValue.string)
        case .choice(let names, let isValid):
            string(table, key, at: path, expected: "one of \(Self.list(names))", where: isValid).map(OptionValue.string)
        case .integer(let expected, _, let isValid):
            int(table, key, at: path, expected: expected, where: isValid).map(OptionValue.int)
        case .seconds(let allowsZero, let zeroMeaning):
            seconds(table, key, at: path, allowsZero: allowsZero, zeroMeaning: zeroMeaning).map(OptionValue.duration)
        case .url:
            url(table, key, at: path).map(OptionValue.url)
        case .path(let kind):
            self.path(table, key, at: path, mustBe: kind).map(OptionValue.url)
        case .origins:
            origins(table, key, at: path).map(OptionValue.origins)
        case .timeOfDay:
            string(table, key, at: path, expected: TimeOfDay.expectation, where: { TimeOfDay($0) != nil })
                .flatMap { TimeOfDay($0) }.map(OptionValue.time)
        case .timesOfDay:
            array(table, key, at: path, of: TimeOfDay.expectation) { $0.string.flatMap { TimeOfDay($0) } }.map(OptionValue.times)
        case .weekdays:
            weekdays(table, key, at: path).map(OptionValue.weekdays)
        case .monitor:
            monitor(table, key, at: path).map(OptionValue.monitor)
        case .zoneLength:
            zoneLength(table, key, at: path).map(OptionValue.zoneLength)
        case .originGrants(let names):
            originGrants(table, key, at: path, names: names).map(OptionValue.grants)
        case .strings(let expected, let isValid):
            distinctStrings(table, key, at: path, expected: expected, where: isValid).map(OptionValue.strings)
        }
    }

    // MARK: Typed reads
    //
    // Each returns nil when the key is absent or its value is wrong; a wrong value is
    // reported at its position as "<key> must be <expected>, got <value>".

    func string(_ table: TOMLTable, _ key: String, at path: Path, expected: String = "a string",
                        where isValid: (String) -> Bool = { _ in true }) -> String? {
        guard let value = table[key] else { return nil }
        guard let string = value.string, isValid(string) else {
            mismatch(at: path + [.key(key)], expected: expected, got: value)
            return nil
        }
        return string
    }

    func bool(_ table: TOMLTable, _ key: String, at path: Path) -> Bool? {
        guard let value = table[key] else { return nil }
        guard let bool = value.bool else {
            mismatch(at: path + [.key(key)], expected: "true or false", got: value)
            return nil
        }
        return bool
    }

    func int(_ table: TOMLTable, _ key: String, at path: Path, expected: String, where isValid: (Int) -> Bool) -> Int? {
        guard let value = table[key] else { return nil }
        guard let int = value.int, isValid(int) else {
            mismatch(at: path + [.key(key)], expected: expected, got: value)
            return nil
        }
        return int
    }

    /// A number of seconds, integer or not.
    func seconds(_ table: TOMLTable, _ key: String, at path: Path, allowsZero: Bool, zeroMeaning: String? = nil) -> Duration? {
        guard let value = table[key] else { return nil }
        let expected = allowsZero
            ? "a number of seconds, 0 or more" + (zeroMeaning.map { " (0: \($0))" } ?? "")
            : "a positive number of seconds"
        if let int = value.int, int > 0 || (allowsZero && int == 0) { return .seconds(int) }
        if let double = value.double, double.isFinite, double > 0 || (allowsZero && double == 0) { return .seconds(double) }
        mismatch(at: path + [.key(key)], expected: expected, got: value)
        return nil
    }

    func url(_ table: TOMLTable, _ key: String, at path: Path) -> URL? {
        let expected = #"an absolute URL with a scheme, such as "https://example.org/""#
        guard let text = string(table, key, at: path, expected: expected, where: { Self.parseURL($0) != nil }) else { return nil }
        return Self.parseURL(text)
    }

    /// A path; relative paths resolve against the configuration file's folder.
    func path(_ table: TOMLTable, _ key: String, at path: Path, mustBe kind: OptionType.PathKind?) -> URL? {
        guard let text = string(table, key, at: path, expected: "a path", where: { !$0.isEmpty }) else { return nil }
        let resolved = resolve(text)
        noteLocalPath(path + [.key(key)], resolved: resolved, in: table, at: path)
        switch kind {
        case .folder? where !FileSystem.isDirectory(resolved):
            mismatch(at: path + [.key(key)], expected: "an existing folder", got: table[key]!, note: resolved)
            return nil
        case .file? where !FileSystem.isRegularFile(resolved):
            mismatch(at: path + [.key(key)], expected: "an existing file", got: table[key]!, note: resolved)
            return nil
        case .output(let suffix, let why)? where !resolved.hasSuffix(suffix) || resolved.hasSuffix("/" + suffix):
            mismatch(at: path + [.key(key)], expected: "a file name ending in \(suffix)", got: table[key]!, note: why)
            return nil
        default:
            return URL(fileURLWithPath: resolved)
        }
    }

    /// A non-empty array of days, `"mon"` … `"sun"`.
    func weekdays(_ table: TOMLTable, _ key: String, at path: Path) -> Set<Weekday>? {
        let expected = "a day: one of \(Self.list(Weekday.allCases.map(\.rawValue)))"
        guard let days = array(table, key, at: path, of: expected, { $0.string.flatMap { Weekday(rawValue: $0.lowercased()) } }) else {
            return nil
        }
        if days.isEmpty { report(at: map.position(ofValue: path + [.key(key)]), "\(display(path + [.key(key)])) must list at least one day") }
        return days.isEmpty ? nil : Set(days)
    }

    /// An array of strings `isValid` accepts, none twice (a repeated one is reported at its
    /// second place).
    func distinctStrings(_ table: TOMLTable, _ key: String, at path: Path, expected: String, where isValid: (String) -> Bool) -> [String]? {
        guard let strings = array(table, key, at: path, of: expected, { $0.string.flatMap { isValid($0) ? $0 : nil } }) else { return nil }
        for (index, string) in strings.enumerated() where strings[..<index].contains(string) {
            report(at: map.position(ofValue: path + [.key(key), .index(index)]),
                   "\(display(path + [.key(key), .index(index)])) repeats \(Self.quoted(string))")
            return nil
        }
        return strings
    }

    /// An integer (an index from 0) or a non-empty string (a connector name).
    func monitor(_ table: TOMLTable, _ key: String, at path: Path) -> MonitorSelector? {
        guard let value = table[key] else { return nil }
        guard let monitor = value.int.flatMap(MonitorSelector.init(index:)) ?? value.string.flatMap(MonitorSelector.init(connector:)) else {
            mismatch(at: path + [.key(key)], expected: MonitorSelector.expectation, got: value)
            return nil
        }
        return monitor
    }

    /// Pixels (an integer from 0) or a percentage (`"25%"`).
    func zoneLength(_ table: TOMLTable, _ key: String, at path: Path) -> ZoneLength? {
        guard let value = table[key] else { return nil }
        guard let length = value.int.flatMap(ZoneLength.init(pixels:)) ?? value.string.flatMap(ZoneLength.init) else {
            mismatch(at: path + [.key(key)], expected: ZoneLength.expectation, got: value)
            return nil
        }
        return length
    }

    func origins(_ table: TOMLTable, _ key: String, at path: Path) -> [Origin]? {
        array(table, key, at: path, of: Origin.serializedExpectation) { $0.string.flatMap(Origin.init(serialized:)) }
    }

    /// A table of origin = [names], in the order written; a bad origin is reported at its
    /// key, a bad name at its element (and the rest still read).
    func originGrants(_ table: TOMLTable, _ key: String, at path: Path, names: [String]) -> [OriginGrant]? {
        guard let grants = self.table(table, key, at: path, expected: "a table of origin = [names]") else { return nil }
        let here = path + [.key(key)]
        let parent = here.compactMap { if case .key(let key) = $0 { key } else { nil } }.joined(separator: ".")
        let declared = ConfigOptions.options(in: parent).map(\.name)
        var read: [(TOMLSourceMap.Position, OriginGrant)] = []
        for originKey in grants.keys where !declared.contains(originKey) {
            guard let origin = Origin(serialized: originKey) else {
                report(at: map.position(ofKey: here + [.key(originKey)]),
                       "a [\(display(here))] key must be \(Origin.serializedExpectation), got \(Self.quoted(originKey))")
                continue
            }
            guard let listed = array(grants, originKey, at: here, of: "one of \(Self.list(names))", {
                $0.string.flatMap { names.contains($0) ? $0 : nil }
            }) else { continue }
            read.append((map.position(ofKey: here + [.key(originKey)]), OriginGrant(origin: origin, names: listed)))
        }
        return read.sorted { $0.0 < $1.0 }.map(\.1)
    }

    /// An array whose every element `convert` accepts; a bad element is reported at its
    /// own position (and the others still read).
    func array<Element>(_ table: TOMLTable, _ key: String, at path: Path, of expected: String,
                                _ convert: (TOMLValueConvertible) -> Element?) -> [Element]? {
        guard let value = table[key] else { return nil }
        guard let array = value.array else {
            mismatch(at: path + [.key(key)], expected: "an array of strings, each \(expected)", got: value)
            return nil
        }
        var elements: [Element] = []
        var allValid = true
        for index in 0..<array.count {
            let element = array[index]
            if let converted = convert(element) {
                elements.append(converted)
            } else {
                mismatch(at: path + [.key(key), .index(index)], expected: expected, got: element)
                allValid = false
            }
        }
        return allValid ? elements : nil
    }

    func table(_ table: TOMLTable, _ key: String, at path: Path, expected: String = "a table") -> TOMLTable? {
        guard let value = table[key] else { return nil }
        guard let result = value.table else {
            mismatch(at: path + [.key(key)], expected: expected, got: value)
            return nil
        }
        return result
    }

    /// An array of tables (`[[key]]` sections or an array of inline tables), each with its path.
    func tables(_ table: TOMLTable, _ key: String, at path: Path) -> [(TOMLTable, Path)]? {
        guard let value = table[key] else { return nil }
        let expected = "an array of tables ([[\(display(path + [.key(key)]))]] sections)"
        guard let array = value.array else {
            mismatch(at: path + [.key(key)], expected: expected, got: value)
            return nil
        }
        var result: [(TOMLTable, Path)] = []
        for index in 0..<array.count {
            let elementPath = path + [.key(key), .index(index)]
            if let element = array[index].table {
                result.append((element, elementPath))
            } else {
                mismatch(at: elementPath, expected: "a table", got: array[index])
            }
        }
        return result.count == array.count ? result : nil
    }

    // MARK: Reporting

    /// Reports keys of `table` that are not in `allowed`.
    func checkKeys(_ table: TOMLTable, at path: Path, allowed: [String], context: String? = nil) {
        for key in table.keys where !allowed.contains(key) {
            let keyPath = path + [.key(key)]
            var message = "unknown key '\(display(keyPath))'"
            if let suggestion = Self.closest(to: key, in: allowed) { message += " (did you mean '\(suggestion)'?)" }
            message += "; expected \(context.map { "for \($0)" } ?? (path.isEmpty ? "at the top level" : "in [\(display(path))]")): \(allowed.joined(separator: ", "))"
            report(at: map.position(ofKey: keyPath), message)
        }
    }

    func mismatch(at path: Path, expected: String, got value: TOMLValueConvertible, note: String? = nil) {
        var message = "\(display(path)) must be \(expected), got \(Self.describe(value))"
        if let note { message += " (\(note))" }
        report(at: map.position(ofValue: path), message)
    }

    func missing(_ key: String, in path: Path, expected: String) {
        report(at: map.position(ofValue: path), "\(display(path)) needs \(key): \(expected)")
    }

    func report(at position: TOMLSourceMap.Position, _ message: String) {
        errors.append(ConfigFileError(file: file, at: position, message))
    }

    /// An absolute, normalised path: `~/` is the home folder, other relative paths are
    /// relative to the configuration file's folder.
    func resolve(_ text: String) -> String {
        var absolute = text
        if text == "~" || text.hasPrefix("~/"), let home = ProcessInfo.processInfo.environment["HOME"] {
            absolute = home + text.dropFirst()
        } else if !text.hasPrefix("/") {
            absolute = directory + "/" + text
        }
        return URL(fileURLWithPath: absolute).standardizedFileURL.path
    }
}
