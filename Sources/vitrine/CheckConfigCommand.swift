import ArgumentParser
import Vitrine
import VitrineConfigFile
import VitrineGTK

/// `vitrine check-config FILE`: reads and builds a configuration file exactly as
/// `vitrine --config FILE` would, without opening a window (no display needed).
struct CheckConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-config",
        abstract: "Check a configuration file without opening a window.",
        discussion: """
            Prints 'FILE: OK' and a summary, exit status 0; or each problem as \
            'FILE:LINE:COLUMN: message' on standard error, exit status 1. \
            With --print KEY, prints only that option's value as the built configuration \
            has it (for scripts: the kiosk-session script reads kiosk.rotation so).
            """)

    @Argument(help: ArgumentHelp("The TOML configuration file.", valueName: "file"))
    var file: String

    @Option(name: .customLong("print"), help: ArgumentHelp(
        "Print only this option's value (\(ConfigFile.printableKeys.joined(separator: ", "))).", valueName: "key"))
    var printKey: String?

    func validate() throws {
        if let printKey, !ConfigFile.printableKeys.contains(printKey) {
            throw ValidationError("--print knows \(ConfigFile.printableKeys.joined(separator: ", ")), not '\(printKey)'")
        }
    }

    func run() throws {
        let preset: Preset
        let configuration: Configuration
        do {
            let config = try ConfigFile(path: file)
            preset = config.preset
            configuration = try config.configuration()
        } catch {
            for problem in error.allErrors { printToStandardError(problem.description) }
            throw ExitCode.failure
        }
        if let printKey, let value = ConfigFile.printedValue(of: printKey, in: configuration) {
            print(value)
            return
        }
        // Warnings, not errors: the printer may be installed after the configuration.
        if let warning = configuration.printing?.queueWarning(knownQueues: CUPSQueues.list()) {
            printToStandardError("\(file): warning: \(warning)")
        }
        print("\(file): OK")
        for (label, value) in ConfigFile.summary(of: configuration, preset: preset) {
            print("  \(label + ":")\(String(repeating: " ", count: max(1, 12 - label.count)))\(value)")
        }
    }

}
