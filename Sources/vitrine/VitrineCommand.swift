import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine
import VitrineGTK

/// `vitrine [URL] [options]`: opens URL, or the bundled demo app, in a Vitrine window.
@main
struct VitrineCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vitrine",
        abstract: "A desktop web container: one GTK window hosting a WebKitGTK view.",
        discussion: """
            With no URL and no preset, opens the bundled demo hybrid app. Presets: \
            \(Preset.allCases.map(\.commandLineName).joined(separator: ", ")).
            """,
        version: VitrineVersion.string)

    @Argument(help: "The URL (or local file) to open. Default: the preset's start page.")
    var url: String?

    @Option(help: "The preset to start from (default: app with no URL, default with a URL).")
    var preset: String?

    @Option(help: "Window width in pixels.")
    var width: Int?

    @Option(help: "Window height in pixels.")
    var height: Int?

    @Flag(help: "Open the window fullscreen.")
    var fullscreen = false

    @Option(help: "Write a PNG of the view to this file after the first load finishes.")
    var screenshot: String?

    @Flag(help: "Exit once the first load has finished (and the screenshot is written).")
    var exitAfterLoad = false

    @Option(help: "Append one JSON object per line for each navigation decision, script message and load event ('-' for standard output).")
    var events: String?

    @Option(help: "Give up (exit 2) if the first load has not finished after this many seconds; with --exit-after-load or --screenshot only.")
    var loadTimeout: Double = 60

    mutating func validate() throws {
        if let preset, Preset(name: preset) == nil {
            throw ValidationError(
                "unknown preset '\(preset)'; expected one of: \(Preset.allCases.map(\.commandLineName).joined(separator: ", "))")
        }
        if let url, StartURL.parse(url) == nil {
            throw ValidationError("'\(url)' is neither a URL with a scheme nor an existing file")
        }
        if let width, width <= 0 { throw ValidationError("--width must be positive, got \(width)") }
        if let height, height <= 0 { throw ValidationError("--height must be positive, got \(height)") }
        if loadTimeout <= 0 { throw ValidationError("--load-timeout must be positive") }
        if let screenshot, !screenshot.lowercased().hasSuffix(".png") {
            throw ValidationError("--screenshot writes PNG: give a file name ending in .png, got '\(screenshot)'")
        }
    }

    func run() throws {
        let configuration = try makeConfigurator().build()
        let eventLog = try events.map { path in try MainActor.assumeIsolated { try JSONLinesEventLog(path: path) } }
        guard GTKRuntime.hasDisplay else {
            throw RuntimeFailure("no display: set DISPLAY (or WAYLAND_DISPLAY), or run under xvfb-run")
        }
        let status = MainActor.assumeIsolated {
            Launcher(configuration: configuration, eventLog: eventLog, screenshot: screenshot,
                     exitAfterLoad: exitAfterLoad, loadTimeout: loadTimeout).run()
        }
        if status != 0 { throw ExitCode(status) }
    }

    /// The preset's configurator refined by the command line.
    func makeConfigurator() throws -> Configurator {
        let startURL = url.flatMap(StartURL.parse)
        let presetName = preset.flatMap(Preset.init(name:)) ?? (startURL == nil ? .app : .default)
        var configurator = ConfiguratorFactory.make(for: presetName)
        if let startURL { configurator = configurator.startURL(startURL) }
        if width != nil || height != nil {
            let current = try configurator.build().windowSize
            configurator = configurator.windowSize(width: width ?? current.width, height: height ?? current.height)
        }
        if fullscreen { configurator = configurator.fullscreen() }
        return configurator
    }
}

/// A failure after the arguments were accepted: printed as `vitrine: error: …`, exit 1.
struct RuntimeFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

enum VitrineVersion {
    static let string = "0.1.0"
}

/// Turns the URL argument into a URL: anything with a scheme as is, an existing file as
/// a file URL.
enum StartURL {
    static func parse(_ argument: String) -> URL? {
        if FileManager.default.fileExists(atPath: argument) {
            return URL(fileURLWithPath: argument).standardizedFileURL
        }
        guard let url = URL(string: argument), let scheme = url.scheme, !scheme.isEmpty else { return nil }
        return url
    }
}
