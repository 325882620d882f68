#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine
import VitrineConfigFile

/// The "Default:" fact of each key in the references, read from what each preset builds
/// (`ConfigFile.keyDefaults`).
enum ReferenceDefaults {
    /// The demo's paths as a package puts them, on any machine. Empty when a preset fails
    /// to build, which the reference tests catch as keys without a default.
    static let byKey = (try? ConfigFile.keyDefaults(resources: ResourceLocator(), installedResources: "/usr/share/vitrine")) ?? [:]

    /// `` `1024` ``; `` `false`; `kiosk`: `true` ``; `unset`; nil for a table that only groups keys.
    static func text(of key: String, code: (String) -> String) -> String? {
        guard let groups = byKey[key], let first = groups.first else { return nil }
        if groups.count == 1 { return value(first.value, code: code) }
        return ([value(first.value, code: code)] + groups.dropFirst().map { group in
            group.presets.map { code($0.commandLineName) }.joined(separator: ", ") + ": " + value(group.value, code: code)
        }).joined(separator: "; ")
    }

    private static func value(_ value: KeyDefault.Value, code: (String) -> String) -> String {
        switch value {
        case .unset: "unset"
        case .items(let items): items.isEmpty ? "none" : items.map(code).joined(separator: ", ")
        case .machine(let what): what
        }
    }
}
