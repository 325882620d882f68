import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine
import VitrineConfigFile
import VitrineGTK
import VitrineTooling

/// `vitrine dev [DIR | URL]`: a developer's window. In a Swift package (a `vitrine new`
/// project: DIR, default `.`, has a Package.swift) it builds and runs the package's own
/// program, which reloads `web/` on change; a Swift change builds and restarts it. Else DIR
/// (default: ./web, else .) is served under app://app/ and watched: a change reloads the
/// page, debounced. A URL (a dev server's, such as Vite's) is opened with its origin added
/// to the app's; the dev server does its own reloading. The web inspector is on.
struct DevCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dev",
        abstract: "Build and run your app's package, or open a folder or a dev server's URL: changes reload, inspector on.")

    @Argument(help: ArgumentHelp("The app's package or web folder (default: . when it has a Package.swift, else ./web, else .), or a dev server's URL (http://localhost:5173/).", valueName: "dir-or-url"))
    var target: String?

    @Option(help: ArgumentHelp("In a package: the program to build and run (default: the one Sources/NAME/main.swift).", valueName: "name"))
    var product: String?

    @Option(help: ArgumentHelp("In a package: swift build's build folder (default: .build in the package).", valueName: "dir"))
    var scratchPath: String?

    @Option(help: ArgumentHelp("Read the app's configuration from this TOML file; the folder or URL overrides its page.", valueName: "file"))
    var config: String?

    @Option(help: "Append one JSON object per line for each event, dev-reload included ('-' for standard output).")
    var events: String?

    @Option(help: ArgumentHelp("Milliseconds without a file event before the page reloads.", valueName: "ms"))
    var quietPeriod: Int = 150

    func validate() throws {
        if quietPeriod < 0 { throw ValidationError("--quiet-period must not be negative") }
        if let target, remoteURL(target) == nil, !FileSystem.isDirectory(target) {
            throw ValidationError("'\(target)' is neither an http(s) URL nor a folder")
        }
    }

    private func remoteURL(_ text: String) -> URL? {
        guard let url = URL(string: text), url.scheme == "http" || url.scheme == "https", url.host != nil else { return nil }
        return url
    }

    /// The folder to serve and watch: the argument, else ./web when there is one, else `.`.
    private var folder: URL? {
        if let target { return remoteURL(target) == nil ? URL(fileURLWithPath: target).standardizedFileURL : nil }
        let web = URL(fileURLWithPath: "web").standardizedFileURL
        return FileSystem.isDirectory(web.path) ? web : URL(fileURLWithPath: ".").standardizedFileURL
    }

    /// The page's errors printed here: the `dev-console` strategy and the script that calls it.
    private func withConsole(_ configurator: Configurator) -> Configurator {
        let script = ResourceLocator().sdkDirectory.appendingPathComponent("dev-console.js")
        guard let source = try? String(contentsOf: script, encoding: .utf8) else {
            printToStandardError("vitrine dev: \(script.path) cannot be read: the page's errors are not printed here")
            return configurator
        }
        return configurator
            .strategy(DevConsoleStrategy { printToStandardError("vitrine dev: " + $0) })
            .userScript(UserScript(source: source, injectionTime: .documentStart, frames: .allFrames))
    }

    /// The package to build and run: the folder (argument or `.`) when it has a Package.swift.
    private func project() throws -> DevProject? {
        guard target.flatMap(remoteURL) == nil else { return nil }
        let folder = URL(fileURLWithPath: target ?? ".")
        do {
            return try DevProject(folder: folder, product: product, scratchPath: scratchPath.map { URL(fileURLWithPath: $0) })
        } catch {
            throw RuntimeFailure(error.description)
        }
    }

    func run() throws {
        if let project = try project() {
            guard config == nil else { throw RuntimeFailure("--config is for a web folder: a package's program reads its own vitrine.toml") }
            guard GTKRuntime.hasDisplay else {
                throw RuntimeFailure("no display: set DISPLAY (or WAYLAND_DISPLAY), or run under xvfb-run")
            }
            let status = MainActor.assumeIsolated {
                ProjectDevRunner(project: project, quietPeriod: .milliseconds(quietPeriod)) {
                    try FlatPkgConfigFolder(path: project.pkgConfigPath).refresh()
                }.run()
            }
            if status != 0 { throw ExitCode(status) }
            return
        }
        let url = target.flatMap(remoteURL)
        let overrides = ConfigOverrides(
            preset: config == nil ? .app : nil, startURL: url,
            allowedOrigins: url.flatMap { Origin($0) }.map { [$0] } ?? [],
            appDirectory: url == nil ? folder : nil, developerTools: true)
        let configuration: Configuration
        do {
            let configurator = try config.map { try ConfigFile(path: $0).configurator(overrides: overrides) }
                ?? overrides.configurator()
            configuration = try withConsole(configurator).build()
        } catch let error as ConfigFileError {
            for problem in error.allErrors { printToStandardError(problem.description) }
            throw ExitCode.failure
        }
        guard GTKRuntime.hasDisplay else {
            throw RuntimeFailure("no display: set DISPLAY (or WAYLAND_DISPLAY), or run under xvfb-run")
        }
        let watched = url == nil ? folder : nil
        let period = Duration.milliseconds(quietPeriod)
        try MainActor.assumeIsolated {
            let eventLog = try events.map {
                try JSONLinesEventLog(path: $0, maxSize: configuration.eventsLogMaxSize, flushScheduler: GTKRuntime.beforeNextWait)
            }
            defer { eventLog?.flush() }
            let sandbox = SandboxCheck(configuration)
            // The app's id as its window class; dev windows are not single-instance.
            GTKRuntime.initialize(applicationID: configuration.applicationID, for: configuration)
            if let problem = sandbox.problem() { throw RuntimeFailure(problem) }
            let container = WebContainer(configuration: configuration)
            if let eventLog { container.addEventSink(eventLog) }
            container.windows.onLastWindowClosed = { GTKRuntime.quit() }
            let reloader = watched.map { DevReloader(container: container, folder: $0, quietPeriod: period) }
            if let watched { printToStandardError("vitrine dev: serving and watching \(watched.path) (\(reloader?.folders.count ?? 0) folders)") }
            container.start()
            GTKRuntime.run()
            withExtendedLifetime(reloader) {}
            container.close()
        }
    }
}
