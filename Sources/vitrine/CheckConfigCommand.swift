import ArgumentParser
import Vitrine
import VitrineConfigFile

/// `vitrine check-config FILE`: reads and builds a configuration file exactly as
/// `vitrine --config FILE` would, without opening a window (no display needed).
struct CheckConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-config",
        abstract: "Check a configuration file without opening a window.",
        discussion: """
            Prints 'FILE: OK' and a summary, exit status 0; or each problem as \
            'FILE:LINE:COLUMN: message' on standard error, exit status 1.
            """)

    @Argument(help: ArgumentHelp("The TOML configuration file.", valueName: "file"))
    var file: String

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
        print("\(file): OK")
        for (label, value) in ConfigFile.summary(of: configuration, preset: preset) {
            print("  \(label + ":")\(String(repeating: " ", count: max(1, 12 - label.count)))\(value)")
        }
    }

}
