import Foundation
import Testing
import Vitrine
import VitrineTooling
import VitrineConfigFile
import VitrineTestSupport

/// `vitrine new`'s plan: names, the template files as written, the dependency line.
@Suite("Project scaffold")
struct ProjectScaffoldTests {
    /// This checkout's Resources folder.
    static let resources = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Resources")

    private func files(_ template: ProjectScaffold.Template, name: String = "Shop",
                       dependency: ProjectScaffold.VitrineDependency = .path("/src/vitrine"),
                       appID: String? = nil) throws -> [String: String] {
        let scaffold = try ProjectScaffold(name: name, template: template, dependency: dependency, appID: appID)
        let files = try scaffold.files(templates: Self.resources.appendingPathComponent("templates"),
                                       sdkTypes: Self.resources.appendingPathComponent("sdk/vitrine.d.ts"))
        return Dictionary(uniqueKeysWithValues: files.map { ($0.path, $0.contents) })
    }

    @Test(arguments: ["Shop", "my_app", "_x", "App2"])
    func swiftIdentifiersAreValidNames(name: String) throws {
        try ProjectScaffold.validate(name: name)
    }

    @Test(arguments: ["", "9lives", "my-app", "my app", "café", "a/b", "Vitrine", "VitrineGTK", String(repeating: "a", count: 65)])
    func otherNamesAreRefusedWithAReason(name: String) {
        #expect(throws: ProjectScaffoldError.self) { try ProjectScaffold.validate(name: name) }
    }

    @Test func minimalWritesEveryFileWithTheNameAndTheDependencyFilledIn() throws {
        let project = try files(.minimal)
        #expect(project.keys.sorted() == [".gitignore", "Makefile", "Package.swift", "README.md", "Sources/Shop/main.swift",
                                          "e2e/update_test.py", "e2e/webdriver_test.py", "icon.svg", "vitrine.toml", "web/app.js", "web/index.html", "web/strategies.d.ts", "web/vitrine.d.ts"])
        for (path, text) in project {
            #expect(!text.contains("__NAME__") && !text.contains("__VITRINE_PACKAGE__") && !text.contains("__PACKAGE__"),
                    "\(path) has a placeholder left")
        }
        #expect(project["Package.swift"]?.contains(#".package(name: "Vitrine", path: "/src/vitrine")"#) == true)
        #expect(project["Package.swift"]?.contains(#"name: "Shop""#) == true)
        #expect(project["Sources/Shop/main.swift"]?.contains("TypedScriptMessageStrategy") == true)
        #expect(project["web/app.js"]?.contains("vitrine.invoke('greet'") == true)
        #expect(project[".gitignore"] == ".build/\nPackage.resolved\ndist/\n")
        #expect(project["README.md"]?.contains("/usr/bin/shop") == true, "the package's name as vitrine bundle makes it")
        #expect(project["Makefile"]?.contains("\t$(XVFB) python3 e2e/webdriver_test.py \"$(SCRATCH)/debug/Shop\"") == true)
        let sdkTypes = try String(contentsOf: Self.resources.appendingPathComponent("sdk/vitrine.d.ts"), encoding: .utf8)
        #expect(project["web/vitrine.d.ts"] == sdkTypes, "the SDK's own types, copied")
        #expect(project["vitrine.toml"]?.contains(#"preset = "app""#) == true)
    }

    @Test func theURLDependencyIsAVersionedPackage() throws {
        let project = try files(.minimal, dependency: .url("https://example.org/vitrine", from: "0.1.0"))
        #expect(project["Package.swift"]?.contains(#".package(url: "https://example.org/vitrine", from: "0.1.0")"#) == true)
    }

    @Test func kioskReplacesOnlyTheConfiguration() throws {
        // The same id: the program and its README name it (where the configuration is looked for).
        let minimal = try files(.minimal, appID: "com.example.Shop")
        let kiosk = try files(.kiosk, appID: "com.example.Shop")
        #expect(kiosk.keys.sorted() == minimal.keys.sorted())
        #expect(kiosk["vitrine.toml"]?.contains(#"preset = "kiosk""#) == true)
        #expect(kiosk.filter { $0.key != "vitrine.toml" } == minimal.filter { $0.key != "vitrine.toml" })
    }

    /// The written configuration is one `vitrine check-config` accepts, opening the app folder.
    @Test(arguments: ProjectScaffold.Template.allCases)
    func theConfigurationBuilds(template: ProjectScaffold.Template) throws {
        let folder = try ConfigFolder()
        _ = try folder.makeFolder("web")
        let path = try folder.write("vitrine.toml", try #require(try files(template)["vitrine.toml"]))
        let configuration = try ConfigFile(path: path).configuration()
        #expect(configuration.startURL?.absoluteString == "app://app/index.html")
        #expect(configuration.applicationID.hasPrefix("org.vitrine.app.Shop_"), "the project's own id: \(configuration.applicationID)")
    }

    /// Two new projects never share an id (a bus name, a data folder), even of the same name.
    @Test func everyProjectGetsItsOwnValidIdOrTheOneGiven() throws {
        let first = try ProjectScaffold(name: "Shop", template: .minimal, dependency: .path("/src/vitrine"))
        let second = try ProjectScaffold(name: "Shop", template: .minimal, dependency: .path("/src/vitrine"))
        #expect(first.appID != second.appID)
        #expect(ApplicationID.accepts(first.appID) && first.appID.hasPrefix("org.vitrine.app.Shop_"), "\(first.appID)")
        let given = try ProjectScaffold(name: "Shop", template: .kiosk, dependency: .path("/src/vitrine"), appID: "com.example.Shop")
        let files = try given.files(templates: Self.resources.appendingPathComponent("templates"),
                                    sdkTypes: Self.resources.appendingPathComponent("sdk/vitrine.d.ts"))
        #expect(files.first { $0.path == "vitrine.toml" }?.contents.contains(#"app-id = "com.example.Shop""#) == true)
        #expect(!files.contains { $0.contents.contains("__APP_ID__") })
        #expect(throws: ProjectScaffoldError.self) {
            try ProjectScaffold(name: "Shop", template: .minimal, dependency: .path("/src/vitrine"), appID: "../Shop")
        }
    }

    @Test func aCheckoutIsFoundByItsPackageName() throws {
        #expect(ProjectScaffold.vitrineCheckout(resources: Self.resources)?.standardizedFileURL
                == Self.resources.deletingLastPathComponent().standardizedFileURL)
        let folder = try ConfigFolder()
        _ = try folder.write("Package.swift", #"let package = Package(name: "Other")"#)
        let resources = URL(fileURLWithPath: try folder.makeFolder("Resources"))
        #expect(ProjectScaffold.vitrineCheckout(resources: resources) == nil)
    }
}
