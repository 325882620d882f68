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
            With --print KEY, prints only that key's value as the built configuration \
            has it, the preset's when the file leaves it out: a list one item a line, an \
            empty line when unset (for scripts: the kiosk-session script reads kiosk.rotation so).
            """)

    @Argument(help: ArgumentHelp("The TOML configuration file.", valueName: "file"))
    var file: String

    @Option(name: .customLong("print"), help: ArgumentHelp(
        "Print only this key's value: any key of the file that has one, such as kiosk.rotation or window.width.", valueName: "key"))
    var printKey: String?

    @Flag(name: .customLong("media"), help: "Also print which media formats this machine's GStreamer decodes and the GL renderer's hardware-acceleration choice.")
    var media = false

    func validate() throws {
        if let printKey, !ConfigFile.printableKeys.contains(printKey) {
            throw ValidationError("--print takes a key of a configuration file that has a value, such as kiosk.rotation, not '\(printKey)'")
        }
    }

    func run() throws {
        let preset: Preset
        let configuration: Configuration
        do {
            // Every problem at once: a fix never uncovers one that was there all along.
            let checked = try ConfigFile.checked(path: file)
            preset = checked.file.preset
            configuration = checked.configuration
            // What is printed below is pasted into tickets and chats: its credentials are redacted.
            SecretMask.shared.add(configuration.credentials)
        } catch {
            for problem in error.allErrors { printToStandardError(problem.description) }
            throw ExitCode.failure
        }
        if let printKey, let value = ConfigFile.printedValue(of: printKey, in: configuration, preset: preset) {
            print(value)
            return
        }
        // Warnings, not errors: the printer may be installed after the configuration.
        if let warning = configuration.printing?.queueWarning(knownQueues: CUPSQueues.list()) {
            printToStandardError("\(file): warning: \(warning)")
        }
        // Asking GStreamer costs a registry load: only for --media or a playlist naming media files.
        if media || !configuration.playlistMediaURLs.isEmpty, case .success(let codecs) = ProcessRendering.codecs {
            for warning in configuration.mediaWarnings(codecs) { printToStandardError("\(file): warning: \(warning)") }
        }
        print("\(file): OK")
        for (label, value) in ConfigFile.summary(of: configuration, preset: preset) {
            print("  \(label + ":")\(String(repeating: " ", count: max(1, 12 - label.count)))\(Redaction.text(value))")
        }
        if media { printMedia(configuration) }
    }

    /// `--media`: the machine's codecs, one format a line, and the rendering choice.
    private func printMedia(_ configuration: Configuration) {
        switch ProcessRendering.codecs {
        case .success(let codecs):
            print("media-codecs:")
            for line in codecs.report.split(separator: "\n") { print("  \(line)") }
        case .failure(let error):
            print("media-codecs: unknown (\(error))")
        }
        let rendering = ProcessRendering.choice(for: configuration)
        print("renderer: \(ProcessRendering.glRenderer ?? "unknown"), hardware acceleration \(rendering.policyName) (\(rendering.reason.rawValue))")
    }

}
