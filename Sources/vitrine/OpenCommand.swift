import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine
import VitrineConfigFile
import VitrineGTK

/// `vitrine [open] [URL] [options]`: opens URL, a configuration file's page, an app
/// folder, or the bundled demo app, in a Vitrine window.
///
/// Precedence: the options here over `--config FILE` over the preset. Everything is
/// checked before GTK starts: a bad option or file exits with a message and no window.
struct OpenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "open",
        abstract: "Open a page in a Vitrine window (the default command).",
        usage: "vitrine [open] [<url>] [<options>]")

    @Argument(help: "The URL (or local file) to open. Default: the configuration file's or the preset's start page.")
    var url: String?

    @Option(help: ArgumentHelp("Read the configuration from this TOML file; the options it also has, given here, override it.", valueName: "file"))
    var config: String?

    /// The options a configuration file also has, generated from its option table.
    @OptionGroup(title: "Options that override the configuration file")
    var settings: ConfigFlags

    @Option(help: ArgumentHelp("Write a PNG of the view to this file after the first load finishes.", valueName: "file.png"))
    var screenshot: String?

    @Flag(help: "Exit once the first load has finished (and the screenshot is written).")
    var exitAfterLoad = false

    @Option(help: ArgumentHelp("Append one JSON object per line for each navigation decision, script message and load event ('-' for standard output).", valueName: "file"))
    var events: String?

    @Option(help: ArgumentHelp("Give up (exit 2) if the first load has not finished after this many seconds; with --exit-after-load or --screenshot only.", valueName: "seconds"))
    var loadTimeout: Double = 60

    @Flag(help: "Run a separate window: no single instance, no remote control (implied by --screenshot, --exit-after-load and --automation).")
    var newInstance = false

    @Flag(help: "Be driven by WebDriver (WebKitWebDriver starts the program with it): throwaway website data, never handed to a running instance; refused by [security] allow-automation = false.")
    var automation = false

    mutating func validate() throws {
        if let url, StartURL.parse(url) == nil {
            throw ValidationError("'\(url)' is neither a URL with a scheme nor an existing file")
        }
        // The options a configuration file also has are checked by the file's rules.
        do {
            _ = try overrides
        } catch {
            throw ValidationError(error.description)
        }
        if loadTimeout <= 0 { throw ValidationError("--load-timeout must be positive") }
        if let screenshot, !screenshot.lowercased().hasSuffix(".png") {
            throw ValidationError("--screenshot writes PNG: give a file name ending in .png, got '\(screenshot)'")
        }
    }

    func run() throws {
        StartupTrace.process.mark(.optionsParsed)
        // First: no child process may inherit systemd's variables and speak for this one.
        let serviceManager = ServiceNotifier.takeEnvironment()
        var configuration: Configuration
        var deepLink: URL?
        do {
            configuration = try makeConfiguration()
            // A URL of the app's own schemes (`xdg-open myapp://…`) is a deep link for the
            // app's page, which opens as it always does.
            if let start = url.flatMap(StartURL.parse), DeepLink.isDeepLink(start, schemes: configuration.urlSchemes) {
                deepLink = start
                configuration = try makeConfiguration(startURL: false)
            }
        } catch let error as ConfigFileError {
            // Compiler style, one problem per line, so editors can jump to each.
            for problem in error.allErrors { printToStandardError(problem.description) }
            throw ExitCode.failure
        }
        StartupTrace.process.mark(.configured)
        let eventLog = try events.map { path in try MainActor.assumeIsolated {
            // Lines written once per main-loop turn: a burst of messages is one write.
            try JSONLinesEventLog(path: path, maxSize: configuration.eventsLogMaxSize, flushScheduler: GTKRuntime.beforeNextWait)
        } }
        guard GTKRuntime.hasDisplay else {
            throw RuntimeFailure("no display: set DISPLAY (or WAYLAND_DISPLAY), or run under xvfb-run")
        }
        let overrides = try overrides
        let configFile = config.map { path in
            // A pushed configuration is read as this one was: the same command line over it.
            VitrineApplication.ConfigurationFile(path: path, completing: { pushed, running in ConfigFile.keepingRemoteMQTT(of: running, in: pushed) },
                                                    redact: ConfigFile.redacted) { text in
                do {
                    // First, before anything in it is read or reported: no file it may not name.
                    try ConfigFile.checkPush(text, replacing: try? String(contentsOfFile: path, encoding: .utf8), at: path)
                    return try ConfigFile.checked(text: text, path: path, overrides: overrides).configuration
                } catch let error as ConfigFileError {
                    throw PushedConfigurationProblems(description: error.allErrors.map(\.description).joined(separator: "\n"))
                }
            }
        }
        let options = VitrineApplication.RunOptions(screenshot: screenshot, exitAfterLoad: exitAfterLoad, loadTimeout: loadTimeout,
                                                    singleInstance: !newInstance, automation: automation, deepLink: deepLink)
        let status = MainActor.assumeIsolated {
            // This program itself lists the decoders, in a process of its own (by its path,
            // so that the helper shows as vitrine, not as "exe").
            ProcessRendering.decoderLister = [ResourceLocator.runningExecutable.path, MediaDecodersCommand.configuration.commandName!]
            let application = VitrineApplication(configuration: configuration, configFile: configFile, eventLog: eventLog,
                                                 options: options)
            application.serviceNotifier = serviceManager.flatMap(ServiceNotifier.init)
            return application.run()
        }
        if status != 0 { throw ExitCode(status) }
    }

    /// The command line as overrides of a configuration file (or of the preset alone).
    var overrides: ConfigOverrides {
        get throws(ConfigCommandLineError) {
            try ConfigOverrides(commandLine: settings.given, startURL: url.flatMap(StartURL.parse))
        }
    }

    /// The preset, refined by the configuration file (if any), refined by the options;
    /// without the URL argument as its start page unless `startURL`.
    func makeConfiguration(startURL: Bool = true) throws -> Configuration {
        var overrides = try overrides
        if !startURL { overrides.startURL = nil }
        if let config {
            return try ConfigFile.checked(path: config, overrides: overrides).configuration
        }
        return try overrides.configurator().build()
    }
}

/// Every problem of a pushed configuration file, one per line (a push's failure reply).
struct PushedConfigurationProblems: Error, CustomStringConvertible {
    let description: String
}
