#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import TOMLKit

/// What a pushed configuration (MQTT `cmd/config`) may not do: whoever may publish it may
/// reconfigure the kiosk, but not read or write its files. So a push may not add or change
/// any value that names a local file or folder — every value the decoder reads as a path
/// (`OptionType.path` options, and the paths inside `[network]`, `[remote.mqtt]`,
/// `[[tls.trust]]`…), found as the decoder reads them rather than from a list — nor the
/// options declared `localOnly()` (the sandbox). It may keep them exactly as the running file has them.
extension ConfigFile {
    /// Throws, at each offending value's line and column in `pushed`, when `pushed` adds or
    /// changes a value naming a local path, or a local-only option, compared with `running`
    /// (the configuration file in force at `path`; nil or unreadable: it has none). Relative
    /// paths compare as the files they resolve to (against `path`'s folder).
    public static func checkPush(_ pushed: String, replacing running: String?, at path: String) throws(ConfigFileError) {
        let directory = absoluteDirectory(of: path)
        let pushedDecoder = ConfigFileDecoder(file: path, directory: directory)
        pushedDecoder.readsPasswordFiles = false
        // A push that is not TOML is refused for that (nothing of it is read).
        let pushedSettings = try pushedDecoder.decode(pushed)
        let runningDecoder = ConfigFileDecoder(file: path, directory: directory)
        runningDecoder.readsPasswordFiles = false
        let runningSettings = running.flatMap { text in try? runningDecoder.decode(text) }
        let kept = runningSettings == nil ? [] : Set(runningDecoder.localPaths.map(\.pin))
        var errors = pushedDecoder.localPaths.filter { !kept.contains($0.pin) }.map { value in
            ConfigFileError(file: path, at: value.position,
                            "\(value.name) names a local file or folder: a pushed configuration may not add or change it"
                            + (value.isWhole ? "" : " or the other keys of its table")
                            + " (keep the running configuration's as it is; change it on the kiosk itself)")
        }
        for option in ConfigOptions.all where option.isLocalOnly {
            let before = runningSettings?.values[option.key].map { "\($0)" }, after = pushedSettings.values[option.key].map { "\($0)" }
            guard before != after else { continue }
            let keyPath = option.key.split(separator: ".").map { TOMLSourceMap.Component.key(String($0)) }
            errors.append(ConfigFileError(file: path, at: pushedDecoder.map.position(ofValue: keyPath),
                                          "\(option.key) may not be changed by a pushed configuration; change it on the kiosk itself"))
        }
        errors.sort { ($0.line ?? 0, $0.column ?? 0) < ($1.line ?? 0, $1.column ?? 0) }
        if var first = errors.first {
            first.otherErrors = Array(errors.dropFirst())
            throw first
        }
    }
}

extension ConfigFile {
    /// `pushed`, with the running file's `[remote.mqtt]` added when it has none: one file
    /// pushed to a whole fleet (`vitrine fleet push`) leaves every kiosk its own identity on
    /// the broker (device id, groups, credentials), which a push may not change anyway.
    /// Text that is not TOML is returned as it is (the push's own check reports it).
    public static func keepingRemoteMQTT(of running: String?, in pushed: String) -> String {
        guard let pushedTable = try? TOMLTable(string: pushed), pushedTable["remote"]?.table?["mqtt"] == nil,
              let running, let runningTable = try? TOMLTable(string: running), let mqtt = runningTable["remote"]?.table?["mqtt"]?.table
        else { return pushed }
        let section = TOMLTable()
        let remote = TOMLTable()
        remote["mqtt"] = mqtt
        section["remote"] = remote
        return pushed + (pushed.hasSuffix("\n") || pushed.isEmpty ? "" : "\n")
            + "\n# [remote.mqtt] kept from the kiosk's own configuration\n" + section.convert(to: .toml) + "\n"
    }
}

/// A value read as a local path: where it is written, and what a running value must equal
/// for a push to keep it.
struct LocalPathValue: Sendable {
    /// The key without its arrays' indices, and the resolved path — or, for a key of a table
    /// in an array of tables (`[[network.credentials]]`), that whole table with its paths
    /// resolved: a kept password file sent to another origin is a change too.
    struct Pin: Hashable, Sendable {
        let key: String
        let value: String
    }

    let pin: Pin
    let position: TOMLSourceMap.Position
    /// How messages name the key (`network.credentials[0].password-file`).
    let name: String
    /// Whether the pin is the value alone (not its whole table).
    let isWhole: Bool
}

extension ConfigFileDecoder {
    /// Records `resolved`, read at `valuePath` from `table` (which is at `tablePath`).
    func noteLocalPath(_ valuePath: Path, resolved: String, in table: TOMLTable, at tablePath: Path) {
        notedPaths.append((valuePath, resolved, table, tablePath))
    }

    /// The values read as local paths, once the whole file is read.
    var localPaths: [LocalPathValue] {
        notedPaths.map { valuePath, resolved, table, tablePath in
            let key = valuePath.compactMap { if case .key(let key) = $0 { key } else { nil } }.joined(separator: ".")
            var value = resolved
            if case .index? = tablePath.last {
                // A table of an array of tables: the whole table as JSON (keys sorted), each
                // of its paths resolved.
                let copy = TOMLTable()
                for name in table.keys { copy[name] = table[name] }
                for noted in notedPaths where noted.tablePath == tablePath && noted.valuePath.count == tablePath.count + 1 {
                    if case .key(let name)? = noted.valuePath.last { copy[name] = noted.resolved }
                }
                value = copy.convert(to: .json)
            }
            return LocalPathValue(pin: .init(key: key, value: value), position: map.position(ofValue: valuePath),
                                  name: display(valuePath), isWhole: value == resolved)
        }
    }
}
