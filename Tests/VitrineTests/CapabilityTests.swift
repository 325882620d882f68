import Foundation
import Testing
import Vitrine
import VitrineTesting
import VitrineConfigFile

/// The capability gate and the capabilities decided without a desktop: the `[capabilities]`
/// table, the refusal a page gets, the `storage` store across runs, the window commands.
@Suite("Capabilities: the gate, storage and window commands")
@MainActor
struct CapabilityTests {
    private static let app = URL(string: "app://app/index.html")!
    private static let names = "dialog, clipboard, window, storage, notification, shell, menu, print, drop, app, shortcuts, tray, power, sidecars, update"

    private func configuration(_ text: String) throws -> Configuration {
        try ConfigFile(text: text, path: "app.toml").configuration(overrides: ConfigOverrides())
    }

    private func error(_ text: String) -> String? {
        do {
            _ = try ConfigFile(text: text, path: "app.toml").configuration(overrides: ConfigOverrides())
            return nil
        } catch {
            return error.description
        }
    }

    private func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vitrine-capabilities-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test func theTableGrantsEachOriginItsCapabilities() throws {
        let configuration = try configuration("""
            start-url = "https://shop.example/"
            [capabilities]
            "app://app" = ["dialog", "clipboard", "window", "storage", "notification", "shell", "menu", "print", "drop", "app", "shortcuts", "tray", "power", "sidecars", "update"]
            "https://shop.example" = ["storage"]
            """)
        let app = Origin(string: "app://app"), shop = Origin(string: "https://shop.example")
        #expect(Capability.allCases.allSatisfy { configuration.capabilities.isGranted($0, to: app) })
        #expect(configuration.capabilities.isGranted(.storage, to: shop))
        #expect(!configuration.capabilities.isGranted(.clipboard, to: shop))
        #expect(!configuration.capabilities.isGranted(.storage, to: Origin(string: "https://other.example")))
        // A granted origin may reach the capability's strategy even when it is not the app's.
        #expect(configuration.allowedOrigins(forStrategy: "dialog").contains(app!))
        #expect(!configuration.allowedOrigins(forStrategy: "page").contains(app!))
        let summary = ConfigFile.summary(of: configuration, preset: .default).first { $0.0 == "capabilities" }?.1
        #expect(summary == "app://app: \(Self.names); https://shop.example: storage")
    }

    @Test func anUnknownCapabilityAndABadOriginAreReportedAtTheirPositions() throws {
        #expect(error("""
            [capabilities]
            "app://app" = ["clipboard", "camera"]
            """) == #"app.toml:2:29: capabilities."app://app"[1] must be one of \#(Self.names), got "camera""#)
        #expect(error("""
            [capabilities]
            clipboard = ["app://app"]
            """) == #"app.toml:2:1: a [capabilities] key must be an origin such as "https://example.org" (scheme://host[:port], no path), got "clipboard""#)
        #expect(error("capabilities = [\"clipboard\"]")?.hasPrefix("app.toml:1:16: capabilities must be a table of origin = [names]") == true)
        #expect(error("app-id = \"../escape\"")?.hasPrefix("app.toml:1:10: app-id must be a reverse-DNS application id such as \"org.example.Shop\"") == true)
    }

    @Test func aPageNotGrantedIsRefusedNamingTheCapabilityAndTheKey() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let strategies = ScriptMessageStrategies([StorageStrategy(store: KeyValueStore(directory: folder)), PingStrategy()])
        let grants = CapabilityGrants().granting([.storage], to: Origin(string: "app://app")!)
        let context = ScriptMessageContext(host: TestHost(), capabilities: grants)
        let set = #"{"action": "set", "key": "k", "value": 1}"#
        let granted = await strategies.dispatch(ScriptMessage(name: "storage", bodyJSON: set, pageURL: Self.app), context: context)
        #expect(granted == .success(true))
        let refused = await strategies.dispatch(
            ScriptMessage(name: "storage", bodyJSON: set, pageURL: URL(string: "https://x.example/page")), context: context)
        #expect(refused == .failure(ScriptMessageError(
            #"capability "storage" is not granted to https://x.example — add it to [capabilities] in the config"#)))
        // Without any grant (the default context) even the app's own page is refused.
        let ungranted = await strategies.dispatchReply(
            ScriptMessage(name: "storage", bodyJSON: set, pageURL: Self.app), context: ScriptMessageContext(host: TestHost()))
        #expect(ungranted == .failure(ScriptMessageError(
            #"capability "storage" is not granted to app://app — add it to [capabilities] in the config"#)))
        // A strategy that needs no capability is not gated.
        let ping = await strategies.dispatchReply(ScriptMessage(name: "ping", bodyJSON: "1", pageURL: nil), context: context)
        #expect(ping == .success(.messageBody))
    }

    @Test func theStoreKeepsValuesAcrossInstancesAndWritesAtomically() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = KeyValueStore(directory: folder.appendingPathComponent("app-id"))
        try first.set("greeting", "hello")
        try first.set("cart", ["items": [1, 2], "total": 3.5])
        try first.set("gone", true)
        try first.remove("gone")
        // A second store on the same folder: what a restarted program reads.
        let second = KeyValueStore(directory: folder.appendingPathComponent("app-id"))
        #expect(try second.keys() == ["cart", "greeting"])
        #expect(try second.value("greeting") == "hello")
        #expect(try second.value("cart") == ["items": [1, 2], "total": 3.5])
        #expect(try second.value("missing") == .null)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("app-id").path)
        #expect(files.sorted() == ["storage.json", "storage.json.lock"], "no temporary file left behind")
        try second.clear()
        #expect(try KeyValueStore(directory: folder.appendingPathComponent("app-id")).keys() == [])
    }

    @Test func theStoreRefusesWhatIsTooLargeAndReportsAnUnreadableFile() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = KeyValueStore(directory: folder, limits: .init(keyBytes: 8, valueBytes: 20, totalBytes: 60))
        #expect(throws: ScriptMessageError("storage: a key must be 1 to 8 bytes")) { try store.set("a-long-key", 1) }
        #expect(throws: ScriptMessageError("storage: the value for 'k' is 22 bytes of JSON; the limit is 20")) {
            try store.set("k", .string(String(repeating: "x", count: 20)))
        }
        try store.set("a", .string(String(repeating: "x", count: 16)))
        try store.set("b", .string(String(repeating: "y", count: 16)))
        // {"a":"x…x","b":"y…y","c":"z…z"}: 64 bytes.
        #expect(throws: ScriptMessageError("storage: the store would be 64 bytes; the limit is 60 (remove keys first)")) {
            try store.set("c", .string(String(repeating: "z", count: 10)))
        }
        #expect(try store.keys() == ["a", "b"], "a refused write changes nothing")
        try Data("not json".utf8).write(to: folder.appendingPathComponent("storage.json"))
        #expect(throws: ScriptMessageError.self) { try KeyValueStore(directory: folder).keys() }
    }

    @Test func windowCommandsAreReadFromTheBody() throws {
        func command(_ json: String) throws -> WindowCommand {
            try WindowCommand(body: try JSONValue(parsing: json), pageURL: Self.app)
        }
        #expect(try command(#"{"action": "resize", "width": 640, "height": 480}"#) == .resize(width: 640, height: 480))
        #expect(try command(#"{"action": "fullscreen", "on": false}"#) == .fullscreen(false))
        #expect(try command(#"{"action": "keepAbove"}"#) == .keepAbove(true))
        #expect(try command(#"{"action": "open", "url": "second.html", "title": "Two", "width": 300}"#)
            == .open(WindowRequest(url: URL(string: "app://app/second.html")!, title: "Two", width: 300)))
        #expect(throws: ScriptMessageError("window: resize needs width, a whole number of pixels from 1 to 32767")) {
            try command(#"{"action": "resize", "width": 0.5, "height": 480}"#)
        }
        #expect(throws: ScriptMessageError.self) { try command(#"{"action": "explode"}"#) }
    }

    @Test func anotherWindowOpensOnlyTheAppsOwnOrigins() throws {
        let configuration = try ConfiguratorFactory.make(for: .default).startURL(Self.app).title("Main")
            .grantCapabilities([.window], to: Origin(string: "app://app")!).build()
        let second = try configuration.forWindow(WindowRequest(url: URL(string: "app://app/two.html")!, title: "Two", height: 200))
        #expect(second.startURL?.absoluteString == "app://app/two.html")
        #expect(second.title == "Two" && second.windowSize == WindowSize(width: 1024, height: 200))
        #expect(second.appOrigins == configuration.appOrigins && second.applicationID == configuration.applicationID)
        #expect(second.capabilities == configuration.capabilities)
        #expect(throws: ScriptMessageError.self) { try configuration.forWindow(WindowRequest(url: URL(string: "https://evil.example/")!)) }
    }

    @Test func theApplicationIDComesFromTheStartPageUnlessSet() throws {
        #expect(try ConfiguratorFactory.make(for: .default).startURL(Self.app).build().applicationID == "org.vitrine.site.app.app")
        #expect(try ConfiguratorFactory.make(for: .default).startURL(URL(string: "https://shop.example:8443/")).build().applicationID
            == "org.vitrine.site.https.example.shop.port8443")
        let set = try configuration("start-url = \"https://x.example/\"\napp-id = \"org.example.Shop\"")
        #expect(set.applicationID == "org.example.Shop")
        #expect(set.appDataDirectory == ApplicationID.dataHome.appendingPathComponent("org.example.Shop"))
    }

    @Test func windowStateIsRememberedByDefaultForAppsOnlyAndSavedSoundly() throws {
        #expect(try ConfiguratorFactory.make(for: .app).build().remembersWindowState)
        #expect(try !ConfiguratorFactory.make(for: .kiosk).build().remembersWindowState)
        #expect(try !ConfiguratorFactory.make(for: .default).build().remembersWindowState)
        #expect(try !configuration("preset = \"app\"\n[window]\nremember = false").remembersWindowState)
        #expect(try configuration("preset = \"kiosk\"\n[window]\nremember = true").remembersWindowState)

        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(WindowState.load(from: folder) == nil)
        let state = WindowState(width: 700, height: 500, x: 10, y: -20, maximized: true)
        try state.save(in: folder.appendingPathComponent("app"))
        #expect(WindowState.load(from: folder.appendingPathComponent("app")) == state)
        try Data(#"{"width": 0, "height": 500, "maximized": false}"#.utf8).write(to: WindowState.file(in: folder))
        #expect(WindowState.load(from: folder) == nil, "a size no window can have is not restored")
    }
}
