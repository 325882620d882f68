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

    @Option(help: ArgumentHelp("Read the configuration from this TOML file; the options below override it.", valueName: "file"))
    var config: String?

    @Option(help: "The preset to start from (default: the file's; else app with nothing to open, default otherwise).")
    var preset: String?

    @Option(help: "Window width in pixels.")
    var width: Int?

    @Option(help: "Window height in pixels.")
    var height: Int?

    @Flag(inversion: .prefixedNo, help: "Open the window fullscreen (or not, over a configuration file).")
    var fullscreen: Bool?

    @Option(name: .customLong("allow-origin"),
            help: ArgumentHelp("An origin (scheme://host[:port]) that belongs to the app, besides the start page's. Repeatable; adds to the file's.", valueName: "origin"))
    var allowOrigins: [String] = []

    @Option(name: .customLong("app-dir"),
            help: ArgumentHelp("Serve this folder under app://app/; without a URL, open app://app/index.html.", valueName: "folder"))
    var appDirectory: String?

    @Option(name: .customLong("app-id"),
            help: ArgumentHelp("The app's reverse-DNS id (its bus name, window class and data folder). Default: the file's, else derived from the app folder or the page.", valueName: "id"))
    var appID: String?

    @Option(help: "The User-Agent header to send.")
    var userAgent: String?

    @Flag(inversion: .prefixedNo, help: "Enable the web inspector (or not, over a configuration file or preset).")
    var developerTools: Bool?

    @Flag(inversion: .prefixedNo, help: "Run web processes under bubblewrap (the default); --no-sandbox: without it, warned at start.")
    var sandbox: Bool?

    @Option(help: "Write a PNG of the view to this file after the first load finishes.")
    var screenshot: String?

    @Flag(help: "Exit once the first load has finished (and the screenshot is written).")
    var exitAfterLoad = false

    @Option(help: "Append one JSON object per line for each navigation decision, script message and load event ('-' for standard output).")
    var events: String?

    @Option(help: "Give up (exit 2) if the first load has not finished after this many seconds; with --exit-after-load or --screenshot only.")
    var loadTimeout: Double = 60

    @Flag(help: "Run a separate window: no single instance, no remote control (implied by --screenshot and --exit-after-load).")
    var newInstance = false

    mutating func validate() throws {
        // The options a configuration file also has are checked by the file's rules.
        func check(_ flag: String, _ value: String?) throws {
            if let value, let problem = ConfigFile.commandLineProblem(flag: flag, value: value) { throw ValidationError(problem) }
        }
        try check("preset", preset)
        if let url, StartURL.parse(url) == nil {
            throw ValidationError("'\(url)' is neither a URL with a scheme nor an existing file")
        }
        try check("width", width.map(String.init))
        try check("height", height.map(String.init))
        for origin in allowOrigins { try check("allow-origin", origin) }
        try check("app-dir", appDirectory)
        try check("app-id", appID)
        try check("user-agent", userAgent)
        if loadTimeout <= 0 { throw ValidationError("--load-timeout must be positive") }
        if let screenshot, !screenshot.lowercased().hasSuffix(".png") {
            throw ValidationError("--screenshot writes PNG: give a file name ending in .png, got '\(screenshot)'")
        }
    }

    func run() throws {
        let configuration: Configuration
        do {
            configuration = try makeConfiguration()
        } catch let error as ConfigFileError {
            // Compiler style, one problem per line, so editors can jump to each.
            for problem in error.allErrors { printToStandardError(problem.description) }
            throw ExitCode.failure
        }
        let eventLog = try events.map { path in try MainActor.assumeIsolated {
            // Lines written once per main-loop turn: a burst of messages is one write.
            try JSONLinesEventLog(path: path, maxSize: configuration.eventsLogMaxSize, flushScheduler: GTKRuntime.beforeNextWait)
        } }
        guard GTKRuntime.hasDisplay else {
            throw RuntimeFailure("no display: set DISPLAY (or WAYLAND_DISPLAY), or run under xvfb-run")
        }
        let overrides = overrides
        let configFile = config.map { path in
            // A pushed configuration is read as this one was: the same command line over it.
            VitrineApplication.ConfigurationFile(path: path) { text in
                do {
                    // First, before anything in it is read or reported: no file it may not name.
                    try ConfigFile.checkPush(text, replacing: try? String(contentsOfFile: path, encoding: .utf8), at: path)
                    return try ConfigFile(text: text, path: path).configuration(overrides: overrides)
                } catch let error as ConfigFileError {
                    throw PushedConfigurationProblems(description: error.allErrors.map(\.description).joined(separator: "\n"))
                }
            }
        }
        let options = VitrineApplication.RunOptions(screenshot: screenshot, exitAfterLoad: exitAfterLoad, loadTimeout: loadTimeout,
                                                    singleInstance: !newInstance)
        let status = MainActor.assumeIsolated {
            VitrineApplication(configuration: configuration, configFile: configFile, eventLog: eventLog, options: options).run()
        }
        if status != 0 { throw ExitCode(status) }
    }

    /// The command line as overrides of a configuration file (or of the preset alone).
    var overrides: ConfigOverrides {
        ConfigOverrides(
            preset: preset.flatMap(Preset.init(name:)),
            startURL: url.flatMap(StartURL.parse),
            width: width, height: height, fullscreen: fullscreen,
            allowedOrigins: allowOrigins.compactMap(Origin.init(serialized:)),
            appDirectory: appDirectory.map { URL(fileURLWithPath: $0).standardizedFileURL },
            userAgent: userAgent, developerTools: developerTools, sandbox: sandbox, appID: appID)
    }

    /// The preset, refined by the configuration file (if any), refined by the options.
    func makeConfiguration() throws -> Configuration {
        if let config {
            return try ConfigFile(path: config).configuration(overrides: overrides)
        }
        return try overrides.configurator().build()
    }
}

/// Every problem of a pushed configuration file, one per line (a push's failure reply).
struct PushedConfigurationProblems: Error, CustomStringConvertible {
    let description: String
}
