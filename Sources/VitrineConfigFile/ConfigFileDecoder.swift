#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine
// TOMLKit is used by this file only, and no TOMLKit type is stored in any Vitrine type or
// appears in any signature outside it: implementation-only keeps it (and its C++ module
// CTOML) out of what clients of the Vitrine module must load. (`internal import` is not
// enough: clients of a module built without library evolution still load such imports.)
import TOMLKit

/// Parses a configuration file's TOML and turns it into `ConfigSettings`, checking every
/// key against the schema. Problems are collected (with their positions) rather than thrown one by one,
/// so a file with several mistakes reports them all, in document order.
final class ConfigFileDecoder {
    typealias Path = TOMLSourceMap.Path

    private let file: String
    private let directory: String
    /// Where each key and value is written; made once the parser has accepted the text.
    private var map = TOMLSourceMap("")
    private(set) var errors: [ConfigFileError] = []

    /// - Parameters:
    ///   - file: the name messages use.
    ///   - directory: the absolute folder relative paths resolve against.
    init(file: String, directory: String) {
        self.file = file
        self.directory = directory
    }

    // MARK: The schema

    static let rootKeys = [
        "preset", "start-url", "title", "allowed-origins", "app-dir", "user-agent", "developer-tools",
        "disable-zoom", "title-follows-page", "error-pages", "crash-recovery", "download-directory",
        "window", "navigation", "strategies", "tabs", "kiosk", "permissions", "tls",
    ]
    static let windowKeys = ["width", "height", "fullscreen"]
    static let navigationKeys = ["decision-timeout", "handlers"]
    static let strategyIdentifiers = [PageStrategy.identifier, UserStrategy.identifier, PingStrategy.identifier]
    static let kioskKeys = [
        "lockdown", "hide-cursor", "idle-reset", "idle-clear-data", "inhibit-screen-blanking",
        "crash-loop-limit", "crash-loop-window", "crash-loop-backoff", "unresponsive-timeout", "external-links",
    ]
    static let handlerKeys: [String: [String]] = [
        "deep-link": ["schemes"],
        "home": ["url"],
        "native-route": ["routes", "origins"],
        "payment": ["path-prefixes", "timeout"],
        "external-browser": ["origins", "schemes"],
        "origin-allowlist": ["origins"],
        "default-allow": ["downloads"],
    ]

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
        return decode(root)
    }

    private func decode(_ root: TOMLTable) -> ConfigSettings {
        var settings = ConfigSettings()
        let here: Path = []
        checkKeys(root, at: here, allowed: Self.rootKeys)

        let presets = "one of \(Self.list(Preset.allCases.map(\.commandLineName)))"
        settings.preset = string(root, "preset", at: here, expected: presets) { Preset(name: $0) != nil }.flatMap(Preset.init(name:))
        settings.startURL = url(root, "start-url", at: here)
        settings.title = string(root, "title", at: here)
        settings.allowedOrigins = array(root, "allowed-origins", at: here, of: Origin.serializedExpectation) {
            $0.string.flatMap(Origin.init(serialized:))
        } ?? []
        settings.appDirectory = path(root, "app-dir", at: here, mustBe: .folder)
        settings.userAgent = string(root, "user-agent", at: here, expected: "a non-empty string") { !$0.isEmpty }
        settings.developerTools = bool(root, "developer-tools", at: here)
        settings.disablesZoom = bool(root, "disable-zoom", at: here)
        settings.titleFollowsPage = bool(root, "title-follows-page", at: here)
        settings.showsErrorPages = bool(root, "error-pages", at: here)
        settings.recoversFromCrashes = bool(root, "crash-recovery", at: here)
        settings.downloadDirectory = path(root, "download-directory", at: here, mustBe: nil)

        if let window = table(root, "window", at: here) {
            let path: Path = [.key("window")]
            checkKeys(window, at: path, allowed: Self.windowKeys)
            settings.width = int(window, "width", at: path, expected: "a positive integer") { $0 > 0 }
            settings.height = int(window, "height", at: path, expected: "a positive integer") { $0 > 0 }
            settings.fullscreen = bool(window, "fullscreen", at: path)
        }
        if let navigation = table(root, "navigation", at: here) {
            decodeNavigation(navigation, into: &settings, downloadsConfigured: root["download-directory"] != nil)
        }
        if let strategies = table(root, "strategies", at: here) {
            decodeStrategies(strategies, into: &settings)
        }
        if let tabs = tables(root, "tabs", at: here) {
            settings.tabs = tabs.compactMap { tab, path in
                checkKeys(tab, at: path, allowed: ["title", "url"])
                let tabTitle = string(tab, "title", at: path), tabURL = url(tab, "url", at: path)
                if tab["title"] == nil { missing("title", in: path, expected: "the tab's label") }
                if tab["url"] == nil { missing("url", in: path, expected: "the page the tab shows") }
                guard let tabTitle, let tabURL else { return nil }
                return Tab(title: tabTitle, url: tabURL)
            }
        }
        if let kiosk = table(root, "kiosk", at: here) {
            settings.kiosk = decodeKiosk(kiosk)
        }
        if let permissions = table(root, "permissions", at: here) {
            settings.permissions = decodePermissions(permissions)
        }
        if let tls = table(root, "tls", at: here) {
            let path: Path = [.key("tls")]
            checkKeys(tls, at: path, allowed: ["trust"])
            settings.trustedCertificates = (tables(tls, "trust", at: path) ?? []).compactMap { entry, path in
                checkKeys(entry, at: path, allowed: ["host", "certificate"])
                let host = string(entry, "host", at: path, expected: #"a host name such as "kiosk.local""#) {
                    !$0.isEmpty && !$0.contains("/") && !$0.contains(":") && !$0.contains(where: \.isWhitespace)
                }
                let certificate = self.path(entry, "certificate", at: path, mustBe: .file)
                if entry["host"] == nil { missing("host", in: path, expected: "the server the certificate is trusted for") }
                if entry["certificate"] == nil { missing("certificate", in: path, expected: "the PEM file of the certificate") }
                guard let host, let certificate else { return nil }
                return TLSException(host: host.lowercased(), certificatePath: certificate.path)
            }
        }
        return settings
    }

    private func decodeNavigation(_ navigation: TOMLTable, into settings: inout ConfigSettings, downloadsConfigured: Bool) {
        let here: Path = [.key("navigation")]
        checkKeys(navigation, at: here, allowed: Self.navigationKeys)
        settings.decisionTimeout = seconds(navigation, "decision-timeout", at: here, allowsZero: false)
        guard let entries = tables(navigation, "handlers", at: here) else { return }
        let handlers = entries.compactMap { entry, path in
            decodeHandler(entry, at: path, downloadsConfigured: downloadsConfigured)
        }
        settings.handlers = handlers
        // The chain as a whole. Checked only when every entry decoded, so one typo in a
        // `type` does not also report the chain.
        guard handlers.count == entries.count else { return }
        let handlersPath = here + [.key("handlers")]
        guard let last = handlers.lastIndex(where: { if case .defaultAllow = $0.kind { return true } else { return false } }) else {
            report(at: map.position(ofValue: handlersPath),
                   #"navigation.handlers never lets a page load: end the chain with a handler of type = "default-allow""#)
            return
        }
        if last < handlers.count - 1 {
            let unreachable = handlers[last + 1]
            report(at: unreachable.position,
                   "\(unreachable.displayPath) comes after default-allow, which decides every navigation, so it would never run; move default-allow to the end")
        }
    }

    /// One chain entry, or nil when anything in it is wrong (so the chain as a whole is
    /// judged only when every entry is sound).
    private func decodeHandler(_ entry: TOMLTable, at path: Path, downloadsConfigured: Bool) -> HandlerSetting? {
        let errorsBefore = errors.count
        let handler = decodeHandlerKind(entry, at: path, downloadsConfigured: downloadsConfigured)
        return errors.count == errorsBefore ? handler : nil
    }

    private func decodeHandlerKind(_ entry: TOMLTable, at path: Path, downloadsConfigured: Bool) -> HandlerSetting? {
        let expectedTypes = "one of \(Self.list(HandlerSetting.types))"
        guard let type = string(entry, "type", at: path, expected: expectedTypes) else {
            if entry["type"] == nil { missing("type", in: path, expected: expectedTypes) }
            return nil
        }
        guard let options = Self.handlerKeys[type] else {
            mismatch(at: path + [.key("type")], expected: expectedTypes, got: entry["type"]!)
            return nil
        }
        checkKeys(entry, at: path, allowed: ["type"] + options, context: "a \(type) handler")
        let kind: HandlerSetting.Kind
        switch type {
        case "deep-link":
            guard let schemes = array(entry, "schemes", at: path, of: #"a URL scheme such as "myapp""#, { value in
                value.string.flatMap { Self.isScheme($0) ? $0.lowercased() : nil }
            }) else {
                if entry["schemes"] == nil { missing("schemes", in: path, expected: #"the app's URL schemes, such as ["myapp"]"#) }
                return nil
            }
            if schemes.isEmpty { report(at: map.position(ofValue: path + [.key("schemes")]), "\(display(path + [.key("schemes")])) must list at least one scheme") }
            kind = .deepLink(schemes: Set(schemes))
        case "home":
            kind = .home(url: url(entry, "url", at: path))
        case "native-route":
            guard let routes = decodeRoutes(entry, at: path) else { return nil }
            kind = .nativeRoute(routes: routes, origins: Set(origins(entry, "origins", at: path) ?? []))
        case "payment":
            let prefixes = array(entry, "path-prefixes", at: path, of: #"a path starting with "/", such as "/pay""#) { value in
                value.string.flatMap { $0.hasPrefix("/") ? $0 : nil }
            }
            kind = .payment(pathPrefixes: prefixes, timeout: seconds(entry, "timeout", at: path, allowsZero: false))
        case "external-browser":
            let schemes = array(entry, "schemes", at: path, of: #"a URL scheme such as "https""#) { value in
                value.string.flatMap { Self.isScheme($0) ? $0.lowercased() : nil }
            }
            kind = .externalBrowser(origins: origins(entry, "origins", at: path).map(Set.init), schemes: schemes.map(Set.init))
        case "origin-allowlist":
            kind = .originAllowlist(origins: origins(entry, "origins", at: path).map(Set.init))
        default:  // "default-allow"
            let downloads = bool(entry, "downloads", at: path)
            if downloads == true && !downloadsConfigured {
                report(at: map.position(ofValue: path + [.key("downloads")]),
                       "\(display(path + [.key("downloads")])) = true needs download-directory: without one, downloads are refused")
            }
            kind = .defaultAllow(downloads: downloads)
        }
        return HandlerSetting(kind: kind, position: map.position(ofValue: path), displayPath: display(path))
    }

    /// `routes = { "/product/:id" = "product" }`, in the order written: the first match wins,
    /// and the parsed table no longer knows the order.
    private func decodeRoutes(_ entry: TOMLTable, at path: Path) -> [RoutePattern]? {
        let routesPath = path + [.key("routes")]
        let expected = #"a table of path pattern = route name, such as { "/product/:id" = "product" }"#
        guard let routes = table(entry, "routes", at: path, expected: expected) else {
            if entry["routes"] == nil { missing("routes", in: path, expected: expected) }
            return nil
        }
        if routes.isEmpty { report(at: map.position(ofValue: routesPath), "\(display(routesPath)) must list at least one route") }
        var patterns: [(TOMLSourceMap.Position, RoutePattern)] = []
        for pattern in routes.keys {
            let patternPath = routesPath + [.key(pattern)]
            guard pattern.hasPrefix("/") else {
                report(at: map.position(ofKey: patternPath),
                       #"\#(display(routesPath)) has the pattern "\#(pattern)"; a pattern is a path starting with "/", such as "/product/:id""#)
                continue
            }
            guard let name = string(routes, pattern, at: routesPath, expected: "a non-empty route name", where: { !$0.isEmpty }) else { continue }
            patterns.append((map.position(ofKey: patternPath), RoutePattern(pattern, name: name)))
        }
        return patterns.sorted { $0.0 < $1.0 }.map(\.1)
    }

    private func decodeStrategies(_ strategies: TOMLTable, into settings: inout ConfigSettings) {
        let here: Path = [.key("strategies")]
        checkKeys(strategies, at: here, allowed: ["enabled", "origins"])
        let expected = "one of \(Self.list(Self.strategyIdentifiers))"
        if let enabled = array(strategies, "enabled", at: here, of: expected, { value in
            value.string.flatMap { Self.strategyIdentifiers.contains($0) ? $0 : nil }
        }) {
            var seen: Set<String> = []
            for (index, identifier) in enabled.enumerated() where !seen.insert(identifier).inserted {
                report(at: map.position(ofValue: here + [.key("enabled"), .index(index)]),
                       "\(display(here + [.key("enabled")])) lists \"\(identifier)\" twice")
            }
            settings.strategies = enabled.reduce(into: []) { list, identifier in if !list.contains(identifier) { list.append(identifier) } }
        }
        if let origins = table(strategies, "origins", at: here) {
            let path = here + [.key("origins")]
            checkKeys(origins, at: path, allowed: Self.strategyIdentifiers, context: "strategy identifiers")
            for identifier in origins.keys where Self.strategyIdentifiers.contains(identifier) {
                if let list = self.origins(origins, identifier, at: path) {
                    settings.strategyOrigins.append((identifier, Set(list)))
                }
            }
        }
    }

    private func decodeKiosk(_ kiosk: TOMLTable) -> KioskSetting {
        let here: Path = [.key("kiosk")]
        checkKeys(kiosk, at: here, allowed: Self.kioskKeys)
        var setting = KioskSetting()
        setting.lockdown = bool(kiosk, "lockdown", at: here)
        setting.hidesCursor = bool(kiosk, "hide-cursor", at: here)
        if let idle = seconds(kiosk, "idle-reset", at: here, allowsZero: true, zeroMeaning: "never") {
            setting.idleReset = .some(idle == .zero ? nil : idle)
        }
        setting.clearsDataOnIdleReset = bool(kiosk, "idle-clear-data", at: here)
        setting.inhibitsScreenBlanking = bool(kiosk, "inhibit-screen-blanking", at: here)
        setting.crashLoopLimit = int(kiosk, "crash-loop-limit", at: here, expected: "an integer of at least 1") { $0 >= 1 }
        setting.crashLoopWindow = seconds(kiosk, "crash-loop-window", at: here, allowsZero: false)
        setting.crashLoopBackoff = seconds(kiosk, "crash-loop-backoff", at: here, allowsZero: true)
        setting.unresponsiveTimeout = seconds(kiosk, "unresponsive-timeout", at: here, allowsZero: false)
        let choices = KioskSetting.ExternalLinks.allCases.map(\.rawValue)
        if let links = string(kiosk, "external-links", at: here, expected: "one of \(Self.list(choices))", where: { choices.contains($0) }) {
            setting.externalLinks = KioskSetting.ExternalLinks(rawValue: links)
        }
        return setting
    }

    private func decodePermissions(_ permissions: TOMLTable) -> [PermissionGrant] {
        let here: Path = [.key("permissions")]
        let kinds = PermissionKind.allCases.map(\.rawValue)
        var grants: [(TOMLSourceMap.Position, PermissionGrant)] = []
        for key in permissions.keys {
            let path = here + [.key(key)]
            guard let origin = Origin(serialized: key) else {
                report(at: map.position(ofKey: path),
                       "a [permissions] key must be \(Origin.serializedExpectation), got \(Self.quoted(key))")
                continue
            }
            guard let granted = array(permissions, key, at: here, of: "one of \(Self.list(kinds))", {
                $0.string.flatMap(PermissionKind.init(rawValue:))
            }) else { continue }
            grants.append((map.position(ofKey: path), PermissionGrant(origin: origin, kinds: Set(granted))))
        }
        return grants.sorted { $0.0 < $1.0 }.map(\.1)
    }

    // MARK: Typed reads
    //
    // Each returns nil when the key is absent or its value is wrong; a wrong value is
    // reported at its position as "<key> must be <expected>, got <value>".

    private func string(_ table: TOMLTable, _ key: String, at path: Path, expected: String = "a string",
                        where isValid: (String) -> Bool = { _ in true }) -> String? {
        guard let value = table[key] else { return nil }
        guard let string = value.string, isValid(string) else {
            mismatch(at: path + [.key(key)], expected: expected, got: value)
            return nil
        }
        return string
    }

    private func bool(_ table: TOMLTable, _ key: String, at path: Path) -> Bool? {
        guard let value = table[key] else { return nil }
        guard let bool = value.bool else {
            mismatch(at: path + [.key(key)], expected: "true or false", got: value)
            return nil
        }
        return bool
    }

    private func int(_ table: TOMLTable, _ key: String, at path: Path, expected: String, where isValid: (Int) -> Bool) -> Int? {
        guard let value = table[key] else { return nil }
        guard let int = value.int, isValid(int) else {
            mismatch(at: path + [.key(key)], expected: expected, got: value)
            return nil
        }
        return int
    }

    /// A number of seconds, integer or not.
    private func seconds(_ table: TOMLTable, _ key: String, at path: Path, allowsZero: Bool, zeroMeaning: String? = nil) -> Duration? {
        guard let value = table[key] else { return nil }
        let expected = allowsZero
            ? "a number of seconds, 0 or more" + (zeroMeaning.map { " (0: \($0))" } ?? "")
            : "a positive number of seconds"
        if let int = value.int, int > 0 || (allowsZero && int == 0) { return .seconds(int) }
        if let double = value.double, double.isFinite, double > 0 || (allowsZero && double == 0) { return .seconds(double) }
        mismatch(at: path + [.key(key)], expected: expected, got: value)
        return nil
    }

    private func url(_ table: TOMLTable, _ key: String, at path: Path) -> URL? {
        let expected = #"an absolute URL with a scheme, such as "https://example.org/""#
        guard let text = string(table, key, at: path, expected: expected, where: { Self.parseURL($0) != nil }) else { return nil }
        return Self.parseURL(text)
    }

    private enum Kind { case file, folder }

    /// A path; relative paths resolve against the configuration file's folder.
    private func path(_ table: TOMLTable, _ key: String, at path: Path, mustBe kind: Kind?) -> URL? {
        guard let text = string(table, key, at: path, expected: "a path", where: { !$0.isEmpty }) else { return nil }
        let resolved = resolve(text)
        switch kind {
        case .folder? where !FileSystem.isDirectory(resolved):
            mismatch(at: path + [.key(key)], expected: "an existing folder", got: table[key]!, note: resolved)
            return nil
        case .file? where !FileSystem.isRegularFile(resolved):
            mismatch(at: path + [.key(key)], expected: "an existing file", got: table[key]!, note: resolved)
            return nil
        default:
            return URL(fileURLWithPath: resolved)
        }
    }

    private func origins(_ table: TOMLTable, _ key: String, at path: Path) -> [Origin]? {
        array(table, key, at: path, of: Origin.serializedExpectation) { $0.string.flatMap(Origin.init(serialized:)) }
    }

    /// An array whose every element `convert` accepts; a bad element is reported at its
    /// own position (and the others still read).
    private func array<Element>(_ table: TOMLTable, _ key: String, at path: Path, of expected: String,
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

    private func table(_ table: TOMLTable, _ key: String, at path: Path, expected: String = "a table") -> TOMLTable? {
        guard let value = table[key] else { return nil }
        guard let result = value.table else {
            mismatch(at: path + [.key(key)], expected: expected, got: value)
            return nil
        }
        return result
    }

    /// An array of tables (`[[key]]` sections or an array of inline tables), each with its path.
    private func tables(_ table: TOMLTable, _ key: String, at path: Path) -> [(TOMLTable, Path)]? {
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
    private func checkKeys(_ table: TOMLTable, at path: Path, allowed: [String], context: String? = nil) {
        for key in table.keys where !allowed.contains(key) {
            let keyPath = path + [.key(key)]
            var message = "unknown key '\(display(keyPath))'"
            if let suggestion = Self.closest(to: key, in: allowed) { message += " (did you mean '\(suggestion)'?)" }
            message += "; expected \(context.map { "for \($0)" } ?? (path.isEmpty ? "at the top level" : "in [\(display(path))]")): \(allowed.joined(separator: ", "))"
            report(at: map.position(ofKey: keyPath), message)
        }
    }

    private func mismatch(at path: Path, expected: String, got value: TOMLValueConvertible, note: String? = nil) {
        var message = "\(display(path)) must be \(expected), got \(Self.describe(value))"
        if let note { message += " (\(note))" }
        report(at: map.position(ofValue: path), message)
    }

    private func missing(_ key: String, in path: Path, expected: String) {
        report(at: map.position(ofValue: path), "\(display(path)) needs \(key): \(expected)")
    }

    private func report(at position: TOMLSourceMap.Position, _ message: String) {
        errors.append(ConfigFileError(file: file, at: position, message))
    }

    // MARK: Text

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

    /// An absolute, normalised path: `~/` is the home folder, other relative paths are
    /// relative to the configuration file's folder.
    private func resolve(_ text: String) -> String {
        var absolute = text
        if text == "~" || text.hasPrefix("~/"), let home = ProcessInfo.processInfo.environment["HOME"] {
            absolute = home + text.dropFirst()
        } else if !text.hasPrefix("/") {
            absolute = directory + "/" + text
        }
        return URL(fileURLWithPath: absolute).standardizedFileURL.path
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
