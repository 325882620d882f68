#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

/// A key's value when a file leaves it out, for some presets: read from the configuration
/// each preset builds (`ConfigOption.printed`), so the reference cannot drift from the code.
public struct KeyDefault: Sendable, Equatable {
    public enum Value: Sendable, Equatable {
        /// Nothing is set: the run decides, or the feature is off.
        case unset
        /// The value; a list's items (none: an empty list).
        case items([String])
        /// A value this machine gives (the host name), described rather than shown.
        case machine(String)
    }

    /// The presets that give this value, in `Preset.allCases`' order.
    public let presets: [Preset]
    public let value: Value
}

extension ConfigFile {
    /// Every key's default, by key: one `KeyDefault` when all presets agree, else one per
    /// value, the `default` preset's first. A key of a table that is off until it is given
    /// (`[kiosk]`, `[printing]`, `[remote.mqtt]` with its broker) is read with that table
    /// on, so the table's own defaults show. Tables that only group keys have none. Paths
    /// in `resources` are shown in `installedResources` instead (the demo's, as a package
    /// puts them), so that the values are the same on every machine.
    public static func keyDefaults(resources: ResourceLocator, installedResources: String) throws(ConfigFileError) -> [String: [KeyDefault]] {
        var built: [String: Configuration] = [:]
        var defaults: [String: [KeyDefault]] = [:]
        for option in ConfigOptions.all {
            guard let printed = option.printed else { continue }
            var groups: [KeyDefault] = []
            for preset in Preset.allCases {
                let text = "preset = \"\(preset.commandLineName)\"\n" + enablingLines(of: option)
                if built[text] == nil { built[text] = try ConfigFile(text: text, path: "/etc/vitrine/defaults.toml").configuration(resources: resources) }
                guard let configuration = built[text] else { continue }
                let printed = printed(configuration, preset)?.replacing(resources.directory.path, with: installedResources)
                let value = Self.value(printed, of: option)
                if let index = groups.firstIndex(where: { $0.value == value }) {
                    groups[index] = KeyDefault(presets: groups[index].presets + [preset], value: value)
                } else {
                    groups.append(KeyDefault(presets: [preset], value: value))
                }
            }
            defaults[option.key] = groups
        }
        return defaults
    }

    private static func value(_ text: String?, of option: ConfigOption) -> KeyDefault.Value {
        guard let text else { return .unset }
        // The host name differs from machine to machine; the reference says what it is.
        if option.key == "remote.mqtt.device-id", text == MQTTSettings.defaultDeviceID { return .machine("the host name") }
        return .items(text.isEmpty ? [] : text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
    }

    /// The lines that turn on the tables around `option`: `[kiosk]`; `[remote.mqtt]` with
    /// its broker's example. Never the option itself.
    private static func enablingLines(of option: ConfigOption) -> String {
        var lines: [String] = []
        var parent = option.parent
        while !parent.isEmpty, let table = ConfigOptions.option(parent) {
            if case .section = table.kind {
                if let key = table.enablingKey, key != option.key, let enabling = ConfigOptions.option(key),
                   let example = enabling.writtenExample ?? enabling.type?.example {
                    lines.insert("[\(table.key)]\n\(enabling.name) = \(example)", at: 0)
                } else if table.apply != nil {
                    lines.insert("[\(table.key)]", at: 0)
                }
            }
            parent = table.parent
        }
        return lines.joined(separator: "\n") + (lines.isEmpty ? "" : "\n")
    }
}
