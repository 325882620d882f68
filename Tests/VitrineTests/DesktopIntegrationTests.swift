import Foundation
import Testing
import Vitrine
import VitrineTesting
import VitrineConfigFile

/// The app's place on the desktop decided without one: `[app] url-schemes` and the deep
/// links they bring, the desktop entry's text, and the `app` capability's autostart entry.
@Suite("Desktop integration: URL schemes, deep links, autostart")
@MainActor
struct DesktopIntegrationTests {
    private static let app = URL(string: "app://app/index.html")!

    private func configuration(_ text: String) throws -> Configuration {
        try ConfigFile(text: text, path: "app.toml").configuration(overrides: ConfigOverrides())
    }

    private func error(_ text: String) -> String? {
        do {
            _ = try configuration(text)
            return nil
        } catch {
            return "\(error)"
        }
    }

    private func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vitrine-desktop-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    // MARK: URL schemes and deep links

    @Test func theAppsSchemesHeadTheChainOnce() async throws {
        let configuration = try configuration("""
            start-url = "https://shop.example/"
            [app]
            url-schemes = ["myapp", "shop+beta"]
            """)
        #expect(configuration.urlSchemes == ["myapp", "shop+beta"])
        #expect(configuration.navigationChain.names.first == DeepLinkHandler.typeName)
        let host = TestHost()
        let context = NavigationContext(host: host, appOrigins: configuration.appOrigins)
        let verdict = await configuration.decide(NavigationAction(url: URL(string: "myapp://open?id=3")!), context: context)
        #expect(verdict.handler == DeepLinkHandler.typeName)
        #expect(verdict.policy == .cancel)
        #expect(host.presentedRoutes.map(\.url.absoluteString) == ["myapp://open?id=3"])
        // A chain that takes the schemes already gets no second handler.
        let own = try self.configuration("""
            start-url = "https://shop.example/"
            [app]
            url-schemes = ["myapp"]
            [[navigation.handlers]]
            type = "deep-link"
            schemes = ["myapp"]
            [[navigation.handlers]]
            type = "default-allow"
            """)
        #expect(own.navigationChain.names == [DeepLinkHandler.typeName, "default-allow"])
    }

    @Test func schemesTheWebOrTheDesktopUseAreRefused() {
        for scheme in ["https", "http", "file", "app", "about", "javascript", "data", "blob", "mailto", "vitrine"] {
            let problem = error("[app]\nurl-schemes = [\"\(scheme)\"]")
            #expect(problem?.hasPrefix("app.toml:2:16: app.url-schemes[0] must be the app's own URL scheme") == true, "\(scheme): \(problem ?? "accepted")")
        }
        for scheme in ["", "My-App", "9app", "my app", "my:app", "my/app", String(repeating: "a", count: 65)] {
            #expect(AppURLScheme.problem(with: scheme) != nil, "'\(scheme)' accepted")
        }
        #expect(AppURLScheme.problem(with: "myapp") == nil)
        #expect(AppURLScheme.problem(with: "com.example.shop-2") == nil)
        #expect(error("[app]\nurl-schemes = \"myapp\"") != nil)
        #expect(error("""
            preset = "kiosk"
            start-url = "https://shop.example/"
            [app]
            url-schemes = ["myapp"]
            """)?.contains("a kiosk takes no deep links") == true)
    }

    @Test func aDeepLinkIsAnAbsoluteURLOfTheAppsSchemesAndNothingElse() throws {
        let link = try DeepLink("myapp://open/item?id=3", schemes: ["myapp"])
        #expect(link.event.jsonText == #"{"url":"myapp://open/item?id=3","scheme":"myapp","host":"open","path":"/item","query":"id=3"}"#)
        #expect(try DeepLink("MyApp://x", schemes: ["myapp"]).url.absoluteString == "MyApp://x")
        let refused = [
            "https://shop.example/", "javascript:alert(1)", "data:text/html,hi", "file:///etc/passwd", "other://open",
            "myapp", "/open?id=3", "myapp://open?id=3 x", "myapp://open?\n", "myapp://open\u{7F}", "",
            "myapp://" + String(repeating: "a", count: DeepLink.maxLength),
        ]
        for text in refused {
            #expect(throws: ScriptMessageError.self, "\(text.prefix(40)) accepted") { try DeepLink(text, schemes: ["myapp"]) }
        }
        #expect(DeepLink.isDeepLink(URL(string: "myapp://x")!, schemes: ["myapp"]))
        #expect(!DeepLink.isDeepLink(URL(string: "https://x")!, schemes: ["myapp"]))
    }

    // MARK: The desktop entry

    @Test func theDesktopEntryRegistersTheSchemesAndQuotesItsCommand() throws {
        let entry = DesktopEntry(name: "Shop", applicationID: "com.example.Shop",
                                 command: ["/opt/my apps/vitrine", "--config", "/home/u/100% \"$HOME\"\\x.toml"], urlSchemes: ["myapp", "shop"])
        #expect(try entry.text() == """
            [Desktop Entry]
            Type=Application
            Name=Shop
            Exec="/opt/my apps/vitrine" --config "/home/u/100%% \\\\"\\\\$HOME\\\\"\\\\\\\\x.toml" %u
            Icon=com.example.Shop
            Terminal=false
            StartupWMClass=com.example.Shop
            MimeType=x-scheme-handler/myapp;x-scheme-handler/shop;

            """)
        var plain = entry
        plain.urlSchemes = []
        plain.command = ["/usr/bin/vitrine"]
        plain.autostart = true
        #expect(try plain.text().contains("Exec=/usr/bin/vitrine\n"))
        #expect(try plain.text().contains("X-GNOME-Autostart-enabled=true\n"))
        #expect(try !plain.text().contains("MimeType"))
        // A line break would add lines of its own to the file.
        plain.name = "Shop\nExec=/bin/evil"
        #expect(throws: ScriptMessageError.self) { try plain.text() }
        plain.name = "Shop"
        plain.command = ["/usr/bin/vitrine", "--config", "a\nExec=/bin/evil"]
        #expect(throws: ScriptMessageError.self) { try plain.text() }
    }

    // MARK: Autostart

    private func autostart(_ body: String, page: URL? = app, kiosk: Bool = false, grant: Bool = true,
                           configHome: URL) async -> Result<JSONValue, ScriptMessageError> {
        let configuration = try! configuration("""
            app-id = "com.example.Shop"
            title = "Shop"
            start-url = "app://app/index.html"
            """).launched(by: ["/usr/bin/vitrine", "--config", "/etc/shop.toml"])
        let strategies = ScriptMessageStrategies([AppStrategy(configuration: configuration, configHome: configHome)])
        let grants = grant ? CapabilityGrants().granting([.app], to: Origin(string: "app://app")!) : CapabilityGrants()
        return await strategies.dispatch(ScriptMessage(name: "app", bodyJSON: body, pageURL: page),
                                         context: ScriptMessageContext(host: DesktopTestHost(BasicDesktop(kiosk: kiosk)), capabilities: grants))
    }

    @Test func setAutostartWritesAndRemovesTheAppsEntryOnly() async throws {
        let home = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: home) }
        let path = home.appendingPathComponent("autostart/com.example.Shop.desktop").path
        #expect(await autostart(#"{"action": "autostart"}"#, configHome: home) == .success(false))
        #expect(await autostart(#"{"action": "setAutostart", "on": true}"#, configHome: home) == .success(true))
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("Exec=/usr/bin/vitrine --config /etc/shop.toml\n"))
        #expect(text.contains("Name=Shop\n") && text.contains("X-GNOME-Autostart-enabled=true\n"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: home.appendingPathComponent("autostart").path) == ["com.example.Shop.desktop"])
        #expect(await autostart(#"{"action": "autostart"}"#, configHome: home) == .success(true))
        #expect(await autostart(#"{"action": "setAutostart", "on": false}"#, configHome: home) == .success(false))
        #expect(!FileManager.default.fileExists(atPath: path))
        // Off when already off is no error.
        #expect(await autostart(#"{"action": "setAutostart", "on": false}"#, configHome: home) == .success(false))
        // A flood of toggles leaves one entry or none, and no temporary files.
        for index in 0..<200 {
            _ = await autostart(#"{"action": "setAutostart", "on": \#(index % 2 == 0)}"#, configHome: home)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: home.appendingPathComponent("autostart").path).isEmpty)
    }

    @Test func autostartIsRefusedToOthersToKiosksAndToGarbage() async throws {
        let home = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: home) }
        let on = #"{"action": "setAutostart", "on": true}"#
        #expect(await autostart(on, page: URL(string: "https://evil.example/")!, configHome: home)
            == .failure(CapabilityGrants.refusal(.app, origin: "https://evil.example")))
        // A sandboxed frame or a document that has gone has no page URL the bridge vouches for.
        #expect(await autostart(on, page: nil, configHome: home) == .failure(CapabilityGrants.refusal(.app, origin: "this page")))
        #expect(await autostart(on, grant: false, configHome: home) == .failure(CapabilityGrants.refusal(.app, origin: "app://app")))
        guard case .failure(let kiosk) = await autostart(on, kiosk: true, configHome: home) else { Issue.record("a kiosk set autostart"); return }
        #expect(kiosk.description.contains("kiosk"))
        for garbage in [#"{"action": "setAutostart"}"#, #"{"action": "setAutostart", "on": "true"}"#, #"{"action": "setAutostart", "on": 1}"#,
                        #"{"action": "write", "path": "/etc/passwd"}"#, "[]", "null", #""setAutostart""#] {
            guard case .failure = await autostart(garbage, configHome: home) else { Issue.record("accepted \(garbage)"); continue }
        }
        #expect(!FileManager.default.fileExists(atPath: home.appendingPathComponent("autostart").path))
    }

    @Test func aSymlinkedAutostartFolderOrEntryIsNeverWrittenThrough() async throws {
        let home = try temporaryFolder()
        let elsewhere = try temporaryFolder()
        defer {
            try? FileManager.default.removeItem(at: home)
            try? FileManager.default.removeItem(at: elsewhere)
        }
        let on = #"{"action": "setAutostart", "on": true}"#
        // The folder is a link to another folder.
        try FileManager.default.createSymbolicLink(atPath: home.appendingPathComponent("autostart").path, withDestinationPath: elsewhere.path)
        guard case .failure(let folder) = await autostart(on, configHome: home) else { Issue.record("wrote through a linked folder"); return }
        #expect(folder.description.contains("symbolic link"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path).isEmpty)
        // The entry is a link to a file the user owns.
        try FileManager.default.removeItem(at: home.appendingPathComponent("autostart"))
        try FileManager.default.createDirectory(at: home.appendingPathComponent("autostart"), withIntermediateDirectories: false)
        let target = elsewhere.appendingPathComponent("bashrc")
        try "untouched".write(to: target, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: home.appendingPathComponent("autostart/com.example.Shop.desktop").path,
                                                   withDestinationPath: target.path)
        guard case .failure(let entry) = await autostart(on, configHome: home) else { Issue.record("wrote through a linked entry"); return }
        #expect(entry.description.contains("symbolic link"))
        guard case .failure = await autostart(#"{"action": "setAutostart", "on": false}"#, configHome: home) else {
            Issue.record("removed a linked entry"); return
        }
        #expect(try String(contentsOf: target, encoding: .utf8) == "untouched")
        #expect(await autostart(#"{"action": "autostart"}"#, configHome: home) == .success(false))
    }
}
