// __NAME__: a Vitrine window showing web/ (served as app://app/), whose page calls `greet`.
// `swift run __NAME__` (from any folder: the program finds its vitrine.toml, see below).
// FoundationEssentials, not Foundation: Foundation would link ICU (34 MB) into the app.
import FoundationEssentials
#if canImport(Glibc)
import Glibc // exit
#endif
import Vitrine
import VitrineConfigFile
import VitrineGTK

/// `greet`: the page's call into Swift, typed on both sides (web/strategies.d.ts has the
/// page's half: `swift package generate-vitrine-types` writes it again from this file).
struct Greet: TypedScriptMessageStrategy {
    static let identifier = "greet"

    struct Request: Decodable {
        var name: String
    }

    struct Response: Encodable {
        var message: String
        var letters: Int
    }

    enum GreetError: Error, CustomStringConvertible {
        case emptyName
        var description: String { "a name is needed" }
    }

    func respond(to request: Request, context: ScriptMessageContext) async throws -> Response {
        guard !request.name.isEmpty else { throw GreetError.emptyName }
        return Response(message: "Hello, \(request.name), from Swift!", letters: request.name.count)
    }
}

/// The app's id, as vitrine.toml names it: `~/.config/<id>/vitrine.toml` is one of the
/// places the configuration is looked for.
let appID = "__APP_ID__"

/// The command line: `--config FILE` (default: vitrine.toml next to this program, else in
/// this package's folder, else in `~/.config/<app id>/`), `--screenshot FILE` and
/// `--exit-after-load` (for tests and CI: end once the page has loaded and its bridge to
/// Swift is up; exit status 2 if not within 60 s), `--automation` (driven by WebDriver,
/// through WebKitWebDriver).
struct Options {
    var config: String?
    var screenshot: String?
    var exitAfterLoad = false
    var automation = false

    init(_ arguments: [String]) {
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--config": config = rest.popFirst()
            case "--screenshot": screenshot = rest.popFirst()
            case "--exit-after-load": exitAfterLoad = true
            case "--automation": automation = true
            default: printToStandardError("__NAME__: unknown argument \(argument)")
            }
        }
    }
}

let options = Options(Array(CommandLine.arguments.dropFirst()))
/// This package's folder, where `swift build` compiled this file (absent in a shipped app).
let packageFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
guard let configPath = options.config
        ?? ConfigFileLocation.find(executable: executable, packageFolder: packageFolder, appID: appID)?.path else {
    let places = ConfigFileLocation.candidates(executable: executable, packageFolder: packageFolder, appID: appID)
    printToStandardError("__NAME__: no vitrine.toml in \(places.map(\.path).joined(separator: ", ")); give one with --config FILE")
    exit(1)
}

/// The app's Configurator: the TOML file's settings (its `app-id` among them), then this
/// app's own strategy. A configuration pushed over MQTT is read the same way.
@MainActor
func configuration(text: String? = nil) throws -> Configuration {
    let file = try text.map { try ConfigFile(text: $0, path: configPath) } ?? ConfigFile(path: configPath)
    return try file.configurator().strategy(Greet()).build()
}

MainActor.assumeIsolated {
    let initial: Configuration
    do {
        initial = try configuration()
    } catch {
        printToStandardError("__NAME__: \(error)")
        exit(1)
    }
    // The application object: one instance per app id on the session bus (a second start
    // brings this window forward), remote control, notifications, MQTT, metrics. A one-shot
    // run (--exit-after-load, --screenshot) runs alone and waits for the page's load and its
    // SDK, whatever the page shows.
    let app = VitrineApplication(
        configuration: initial,
        configFile: .init(path: configPath) { try configuration(text: $0) },
        options: .init(screenshot: options.screenshot, exitAfterLoad: options.exitAfterLoad, waitsForSDK: true,
                       automation: options.automation))
    exit(app.run())
}
