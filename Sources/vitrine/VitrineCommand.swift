import ArgumentParser
import Vitrine

/// `vitrine`: with no subcommand, `open` (so `vitrine URL [options]` opens a window, as
/// always); `vitrine check-config FILE` checks a configuration file without a window.
@main
struct VitrineCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vitrine",
        abstract: "A desktop web container: one GTK window hosting a WebKitGTK view.",
        usage: """
            vitrine [<url>] [--config <file>] [--preset <preset>] [<options>]
            vitrine check-config <file>
            vitrine new <name> [--template minimal|kiosk]
            vitrine dev [<dir> | <url>]
            vitrine bundle [<dir>] [--app-version <version>] [--maintainer <who>]
            vitrine fleet ls|push|cmd|screenshot [<options>]
            vitrine --automation [<url>] [<options>]
            """,
        discussion: """
            With no URL, no --config and no --app-dir, opens the bundled demo hybrid app (the demo preset). Presets: \
            \(Preset.allCases.map(\.commandLineName).joined(separator: ", ")).

            The window's options (--config, --preset, --width, --allow-origin, --app-dir, …) \
            are listed by 'vitrine open --help'.
            """,
        version: VitrineVersion.string,
        subcommands: [OpenCommand.self, CheckConfigCommand.self, ControlCommand.self, NewCommand.self, DevCommand.self, BundleCommand.self, PkgConfigPathCommand.self, FleetCommand.self, GenerateCommand.self, MediaDecodersCommand.self],
        defaultSubcommand: OpenCommand.self)

    /// Every log line of the process is redacted (`RedactingLogHandler`) before any runs.
    static func main() {
        StartupTrace.process.mark(.processStart)
        RedactingLogHandler.bootstrap()
        main(nil)
    }
}
