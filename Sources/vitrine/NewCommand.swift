import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine
import VitrineGTK
import VitrineTooling

/// `vitrine new NAME [--template minimal|kiosk]`: a ready project folder — a Swift package
/// whose program opens its own `web/` app and answers it with a typed strategy.
struct NewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "new",
        abstract: "Create a hybrid-app project: a Swift package with a web/ folder.",
        discussion: """
            Writes the folder NAME (refused if it exists): Package.swift, Sources/NAME/main.swift \
            with a typed strategy, web/index.html, web/app.js, web/vitrine.d.ts, vitrine.toml, \
            icon.svg, a Makefile (check, e2e, bundle), e2e/webdriver_test.py, README.md and .gitignore. The package depends on the Vitrine checkout this program \
            runs from (by path) when there is one, else on --vitrine-url.
            """)

    @Argument(help: ArgumentHelp("The project's name: a Swift identifier (its folder, package and module).", valueName: "name"))
    var name: String

    @Option(help: "The template: \(ProjectScaffold.Template.allCases.map(\.rawValue).joined(separator: " or ")).")
    var template: String = ProjectScaffold.Template.minimal.rawValue

    @Option(help: ArgumentHelp("Depend on the Vitrine checkout in this folder (default: the one this program runs from, if any).", valueName: "folder"))
    var vitrinePath: String?

    @Option(help: ArgumentHelp("The Vitrine package's URL, when there is no checkout.", valueName: "url"))
    var vitrineURL: String = "https://github.com/vitrine-dev/vitrine"

    @Option(name: .customLong("app-id"),
            help: ArgumentHelp("The app's reverse-DNS id, such as com.example.Shop (default: a new unique one under org.vitrine.app).", valueName: "id"))
    var appID: String?

    @Option(help: ArgumentHelp("Create the project's folder inside this one (default: the current folder).", valueName: "folder"))
    var directory: String = "."

    func validate() throws {
        guard ProjectScaffold.Template(rawValue: template) != nil else {
            throw ValidationError("--template is \(ProjectScaffold.Template.allCases.map(\.rawValue).joined(separator: " or ")), not '\(template)'")
        }
        do { try ProjectScaffold.validate(name: name) } catch { throw ValidationError(error.description) }
        if let appID, let problem = ApplicationID.problem(with: appID) {
            throw ValidationError("--app-id '\(appID)' is not a reverse-DNS application id such as org.example.Shop: \(problem)")
        }
    }

    func run() throws {
        let resources = ResourceLocator()
        let dependency: ProjectScaffold.VitrineDependency
        if let vitrinePath {
            dependency = .path(URL(fileURLWithPath: vitrinePath).standardizedFileURL.path)
        } else if let checkout = ProjectScaffold.vitrineCheckout(resources: resources.directory) {
            dependency = .path(checkout.path)
        } else {
            dependency = .url(vitrineURL, from: VitrineVersion.string)
        }
        let project = URL(fileURLWithPath: directory).appendingPathComponent(name).standardizedFileURL
        guard !FileManager.default.fileExists(atPath: project.path) else {
            printToStandardError("vitrine new: \(project.path) exists; choose another name or remove it")
            throw ExitCode.failure
        }
        let writtenID: String
        do {
            let scaffold = try ProjectScaffold(name: name, template: ProjectScaffold.Template(rawValue: template)!, dependency: dependency,
                                               appID: appID)
            writtenID = scaffold.appID
            let files = try scaffold.files(templates: resources.directory.appendingPathComponent("templates"),
                                           sdkTypes: resources.sdkDirectory.appendingPathComponent("vitrine.d.ts"))
            for file in files {
                let url = project.appendingPathComponent(file.path)
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(file.contents.utf8).write(to: url)
            }
        } catch {
            printToStandardError("vitrine new: \(error)")
            throw ExitCode.failure
        }
        print("created \(project.path)")
        print("  app id \(writtenID) (in vitrine.toml: its bus name, window class and data folder)")
        switch dependency {
        case .path(let path): print("  depends on the Vitrine checkout \(path)")
        case .url(let url, let version): print("  depends on \(url) from \(version)")
        }
        print("next:\n  cd \(name)\n  make run")
    }
}
