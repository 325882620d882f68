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
        for (label, value) in Self.summary(of: configuration, preset: preset) {
            print("  \(label + ":")\(String(repeating: " ", count: max(1, 12 - label.count)))\(value)")
        }
    }

    /// The few facts worth a glance: what opens, how, and what the page may call.
    static func summary(of configuration: Configuration, preset: Preset) -> [(String, String)] {
        var lines: [(String, String)] = [
            ("preset", preset.commandLineName),
            ("start URL", configuration.startURL?.absoluteString ?? "(none)"),
        ]
        if let app = configuration.appDirectory {
            lines.append(("app folder", "\(app.path.path) as \(app.rootURL.absoluteString)"))
        }
        let size = configuration.windowSize
        lines.append(("window", "\(size.width)x\(size.height)" + (configuration.fullscreen ? ", fullscreen" : "")))
        lines.append(("chain", configuration.navigationChain.names.joined(separator: " → ")))
        let strategies = configuration.strategies.identifiers
        lines.append(("strategies", strategies.isEmpty ? "(none)" : strategies.joined(separator: ", ")))
        if !configuration.tabs.isEmpty { lines.append(("tabs", configuration.tabs.map(\.title).joined(separator: ", "))) }
        if let kiosk = configuration.kiosk {
            let idle = kiosk.idleReset.map { "idle reset after \(Self.seconds($0))" } ?? "no idle reset"
            lines.append(("kiosk", "yes, \(kiosk.lockdown ? "locked down" : "not locked down"), \(idle)"))
        }
        return lines
    }

    private static func seconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        return attoseconds == 0 ? "\(seconds) s" : "\(Double(seconds) + Double(attoseconds) / 1e18) s"
    }
}
