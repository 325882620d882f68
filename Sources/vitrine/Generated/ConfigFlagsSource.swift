import VitrineConfigFile

/// The Swift source of `ConfigFlags` (Sources/vitrine/ConfigFlags.swift): one ArgumentParser
/// property per configuration option with a flag, so that `vitrine open --help` lists them
/// and the flags cannot drift from the option table. `make generated` writes it; a test
/// fails when the committed file is stale.
enum ConfigFlagsSource {
    static var text: String {
        let flags = ConfigFile.flagDescriptions
        var lines = [
            "// Generated from the option table (Sources/VitrineConfigFile/ConfigOptions.swift) by",
            "// `make generated` (`vitrine generate config-flags`). Do not edit: a test fails when it is stale.",
            "import ArgumentParser",
            "",
            "/// The `open` command's options that a configuration file also has, one per option with a",
            "/// flag. Values are read as text and checked by the option's own rule",
            "/// (`ConfigOverrides(commandLine:)`), so the command line and the file say the same.",
            "struct ConfigFlags: ParsableArguments {",
        ]
        for description in flags {
            guard let flag = description.flag, let form = description.flagForm else { continue }
            let help = literal(helpText(description))
            let name = propertyName(flag)
            switch form {
            case .toggle:
                lines.append("    @Flag(name: .customLong(\(literal(flag))), inversion: .prefixedNo, help: \(help))")
                lines.append("    var \(name): Bool?")
            case .value(let valueName):
                lines.append("    @Option(name: .customLong(\(literal(flag))), help: ArgumentHelp(\(help), valueName: \(literal(valueName))))")
                lines.append("    var \(name): String?")
            case .repeated(let valueName):
                lines.append("    @Option(name: .customLong(\(literal(flag))), help: ArgumentHelp(\(help), valueName: \(literal(valueName))))")
                lines.append("    var \(name): [String] = []")
            }
            lines.append("")
        }
        lines.append("    /// The flags given, by flag, with their values as written (a repeated flag's in order).")
        lines.append("    var given: [String: [String]] {")
        lines.append("        var given: [String: [String]] = [:]")
        for description in flags {
            guard let flag = description.flag, let form = description.flagForm else { continue }
            let name = propertyName(flag)
            switch form {
            case .toggle: lines.append("        given[\(literal(flag))] = \(name).map { [String($0)] }")
            case .value: lines.append("        given[\(literal(flag))] = \(name).map { [$0] }")
            case .repeated: lines.append("        given[\(literal(flag))] = \(name).isEmpty ? nil : \(name)")
            }
        }
        lines.append("        return given")
        lines.append("    }")
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The option's doc as a sentence, with where a file sets it.
    static func helpText(_ description: ConfigKeyDescription) -> String {
        let sentence = description.doc.prefix(1).uppercased() + description.doc.dropFirst()
        var repeated = ""
        if case .repeated = description.flagForm { repeated = " Repeatable; adds to the file's." }
        return "\(sentence).\(repeated) In a file: \(description.key)."
    }

    /// `allow-origin` → `allowOrigin`.
    static func propertyName(_ flag: String) -> String {
        let parts = flag.split(separator: "-")
        return (parts.first.map(String.init) ?? "") + parts.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    /// A Swift string literal of `text`.
    static func literal(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": escaped += "\\\\"
            case "\"": escaped += "\\\""
            case "\n": escaped += "\\n"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return "\"\(escaped)\""
    }
}
