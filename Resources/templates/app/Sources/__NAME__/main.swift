// __NAME__: a Vitrine window showing web/ (served as app://app/), whose page calls `greet`.
// Run it from this folder: `swift run __NAME__` (the window reads ./vitrine.toml).
import Foundation
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

/// The command line: `--config FILE` (default ./vitrine.toml), `--screenshot FILE` and
/// `--exit-after-load` (for tests and CI: end once the page shows Swift's answer; exit
/// status 2 if it has not within 60 s).
struct Options {
    var config = "vitrine.toml"
    var screenshot: String?
    var exitAfterLoad = false

    init(_ arguments: [String]) {
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--config": config = rest.popFirst() ?? config
            case "--screenshot": screenshot = rest.popFirst()
            case "--exit-after-load": exitAfterLoad = true
            default: FileHandle.standardError.write(Data("__NAME__: unknown argument \(argument)\n".utf8))
            }
        }
    }
}

let options = Options(Array(CommandLine.arguments.dropFirst()))

/// The app's Configurator: the TOML file's settings (its `app-id` among them), then this
/// app's own strategy. A configuration pushed over MQTT is read the same way.
@MainActor
func configuration(text: String? = nil) throws -> Configuration {
    let file = try text.map { try ConfigFile(text: $0, path: options.config) } ?? ConfigFile(path: options.config)
    return try file.configurator().strategy(Greet()).build()
}

MainActor.assumeIsolated {
    let initial: Configuration
    do {
        initial = try configuration()
    } catch {
        FileHandle.standardError.write(Data("__NAME__: \(error)\n".utf8))
        exit(1)
    }
    // The application object: one instance per app id on the session bus (a second start
    // brings this window forward), remote control, notifications, MQTT, metrics.
    let oneShot = options.exitAfterLoad || options.screenshot != nil
    let app = VitrineApplication(
        configuration: initial,
        configFile: .init(path: options.config) { try configuration(text: $0) },
        options: .init(singleInstance: !oneShot))
    if oneShot {
        // A page that never answers (no bridge, a script error) must not hang a CI job.
        Task { @MainActor in
            try? await Task.sleep(for: .seconds(60))
            FileHandle.standardError.write(Data("__NAME__: the page showed no answer from Swift within 60 s\n".utf8))
            exit(2)
        }
        // web/app.js puts Swift's answer in the title: that is when the page is ready.
        app.containerObservers.append { container in
            container.titleObservers.append { [weak container] title in
                guard let container, title.hasSuffix("from Swift!") else { return }
                print("title: \(title)")
                Task { @MainActor in
                    if let screenshot = options.screenshot { try? await container.snapshot(to: screenshot) }
                    if options.exitAfterLoad { GTKRuntime.quit() }
                }
            }
        }
    }
    exit(app.run())
}
