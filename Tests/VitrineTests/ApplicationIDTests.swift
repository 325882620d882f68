import Foundation
import Testing
import Vitrine
import VitrineConfigFile
import VitrineTestSupport

/// App ids: GLib's rule for them, the ids of apps that name none, the data folder each id
/// has and the move of an earlier version's data.
@Suite("Application ids")
struct ApplicationIDTests {
    @Test(arguments: ["org.example.Shop", "com.example.my-app", "a.b", "org._1.x_Y", "org.vitrine.Vitrine",
                      "a." + String(repeating: "b", count: 253)])
    func reverseDNSIdsAreAccepted(id: String) {
        #expect(ApplicationID.problem(with: id) == nil, "\(id)")
    }

    @Test(arguments: [
        ("", "empty"), ("Shop", "at least two elements"), ("..", "empty element"), ("org..example", "empty element"),
        (".org.example", "empty element"), ("org.example.", "empty element"), ("org/example.Shop", "'/' is not allowed"),
        ("../../etc.passwd", "empty element"), ("org.example.../x", "empty element"), ("org.1example.Shop", "starts with a digit"),
        ("1org.example", "starts with a digit"), ("org.exämple.Shop", "'ä' is not allowed"), ("org.example.Sh op", "' ' is not allowed"),
        ("org.example.Shop\u{0}", "is not allowed"), ("a." + String(repeating: "b", count: 254), "longer than 255 bytes"),
    ])
    func abusiveIdsAreRefusedWithTheReason(id: String, reason: String) {
        let problem = ApplicationID.problem(with: id)
        #expect(problem?.contains(reason) == true, "\(id): \(problem ?? "accepted")")
        #expect(!ApplicationID.accepts(id))
    }

    @Test func aBadIdIsAClearErrorNamingTheKeyInFilesOnTheCommandLineAndInSwift() throws {
        let errors = configurationErrors("app-id = \"../other-app\"", path: "app.toml")
        #expect(errors.count == 1 && errors[0].contains("app-id") && errors[0].contains("reverse-DNS"), "\(errors)")
        #expect(ConfigFile.commandLineProblem(flag: "app-id", value: "shop")?.contains("--app-id must be a reverse-DNS application id") == true)
        #expect(throws: ConfigurationError.self) { try ConfiguratorFactory.make(for: .default).appID("org..x").build() }
        do {
            _ = try ConfiguratorFactory.make(for: .default).appID("9.x").build()
            Issue.record("9.x was accepted")
        } catch {
            #expect("\(error)".contains("app-id '9.x'") && "\(error)".contains("starts with a digit"), "\(error)")
        }
    }

    @Test func theDemoKeepsTheStockIdAndAnythingElseGetsItsOwn() throws {
        #expect(try ConfigOverrides().configurator().build().applicationID == ApplicationID.stock)
        let site = try ConfigOverrides(startURL: URL(string: "https://shop.example.com/")).configurator().build()
        #expect(site.applicationID == "org.vitrine.site.https.com.example.shop")
        let other = try ConfigOverrides(startURL: URL(string: "http://shop.example.com/")).configurator().build()
        #expect(other.applicationID != site.applicationID, "another origin, another id")
        // The app preset with another folder is that folder's app, not the demo.
        let folder = try ConfigFolder()
        let web = try folder.makeFolder("web")
        let app = try ConfigOverrides(preset: .app, appDirectory: URL(fileURLWithPath: web)).configurator().build()
        #expect(app.applicationID == ApplicationID.derived(fromFolder: URL(fileURLWithPath: web)))
        #expect(try ConfigOverrides(startURL: URL(string: "https://x.example/"), appID: "org.example.X").configurator().build()
            .applicationID == "org.example.X")
        // Every derived id is a valid one: IP addresses, IPv6, ports, hosts with digits first.
        for url in ["http://127.0.0.1:8080/", "http://[::1]:9/", "https://3com.example/", "app://my_app/", "file:///tmp/x%20y.html"] {
            let id = try ConfigOverrides(startURL: URL(string: url)).configurator().build().applicationID
            #expect(ApplicationID.accepts(id), "\(url) -> \(id)")
        }
        let long = String(repeating: "a", count: 60)
        let longHost = URL(string: "https://\(long).\(long).\(long).\(long).\(long).example/")!
        #expect(ApplicationID.accepts(try ConfigOverrides(startURL: longHost).configurator().build().applicationID))
    }

    /// A pushed configuration that names no id runs as the running app; one naming another is refused.
    @Test func aPushedConfigurationKeepsTheRunningAppsId() throws {
        let unnamed = try ConfigOverrides(startURL: URL(string: "https://other.example/")).configurator().build()
        let kept = try #require(unnamed.keepingApplicationID("org.example.Kiosk"))
        #expect(kept.applicationID == "org.example.Kiosk" && kept.startURL == unnamed.startURL)
        #expect(kept.appDataDirectory.lastPathComponent == "org.example.Kiosk")
        let named = try ConfigOverrides(startURL: URL(string: "https://other.example/"), appID: "org.example.Other").configurator().build()
        #expect(named.keepingApplicationID("org.example.Kiosk") == nil)
        #expect(named.keepingApplicationID("org.example.Other")?.applicationID == "org.example.Other")
    }

    @Test func anAppFoldersIdIsItsRealPaths() throws {
        let folder = try ConfigFolder()
        let one = URL(fileURLWithPath: try folder.makeFolder("one/web"))
        let two = URL(fileURLWithPath: try folder.makeFolder("two/web"))
        let link = folder.url.appendingPathComponent("link")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: one)
        let id = ApplicationID.derived(fromFolder: one)
        #expect(ApplicationID.accepts(id) && id.hasPrefix("org.vitrine.folder.web-"), "\(id)")
        #expect(ApplicationID.derived(fromFolder: one) == id, "stable")
        #expect(ApplicationID.derived(fromFolder: link) == id, "a symlink to the folder is the folder")
        #expect(ApplicationID.derived(fromFolder: one.appendingPathComponent("../web")) == id, "however it is spelt")
        #expect(ApplicationID.derived(fromFolder: two) != id, "another folder of the same name")
        // Through the command line, as `vitrine --app-dir LINK` runs it.
        let byLink = try ConfigOverrides(appDirectory: link).configurator().build()
        #expect(byLink.applicationID == id)
        #expect(byLink.appDataDirectory.lastPathComponent == id)
    }

    @Test func anEarlierVersionsDataMovesOnceAndOnlyForAConfiguredId() throws {
        let home = try ConfigFolder()
        let legacy = home.url.appendingPathComponent("vitrine/org.example.Shop")
        try home.write("vitrine/org.example.Shop/storage.json", #"{"token":"A"}"#)
        // The id earlier versions derived for every app folder: shared, so never moved.
        try home.write("vitrine/app-app/storage.json", #"{"token":"shared"}"#)
        #expect(try ApplicationID.moveLegacyData(of: "org.example.Shop", in: home.url)?.path == home.url.appendingPathComponent("org.example.Shop").path)
        #expect(FileManager.default.fileExists(atPath: home.url.appendingPathComponent("org.example.Shop/storage.json").path))
        #expect(!FileManager.default.fileExists(atPath: legacy.path))
        #expect(try ApplicationID.moveLegacyData(of: "app-app", in: home.url) == nil)
        #expect(FileManager.default.fileExists(atPath: home.url.appendingPathComponent("vitrine/app-app/storage.json").path))
        // An existing folder is never replaced; a symlinked old folder is not followed.
        try home.write("vitrine/org.example.Shop/storage.json", #"{"token":"old"}"#)
        #expect(try ApplicationID.moveLegacyData(of: "org.example.Shop", in: home.url) == nil)
        #expect(try String(contentsOf: home.url.appendingPathComponent("org.example.Shop/storage.json"), encoding: .utf8).contains("\"A\""))
        let secret = try home.makeFolder("secret")
        try FileManager.default.createSymbolicLink(atPath: home.url.appendingPathComponent("vitrine/org.example.Other").path,
                                                   withDestinationPath: secret)
        #expect(try ApplicationID.moveLegacyData(of: "org.example.Other", in: home.url) == nil)
    }
}
