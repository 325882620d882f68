import Foundation
import Testing
import Vitrine
import VitrineConfigFile
import VitrineTesting

@Suite("Presets and the factory")
struct PresetTests {
    @Test func defaultPreset() throws {
        let configuration = try ConfiguratorFactory.make(for: .default).build()
        #expect(configuration.navigationChain.names == ["default-allow"])
        #expect(configuration.strategies.identifiers == ["page", "user", "ping"])
        #expect(configuration.title == "Vitrine")
        #expect(!configuration.disablesZoom)
        #expect(!configuration.titleFollowsPage)
        #expect(configuration.userScripts.isEmpty)
        #expect(configuration.startURL == nil)
    }

    @Test func productPagePreset() throws {
        let configuration = try ConfiguratorFactory.make(for: .productPage).build()
        #expect(configuration.navigationChain.names == ["default-allow"])
        #expect(configuration.strategies.identifiers == ["page", "user", "ping"])
        #expect(configuration.disablesZoom)
        #expect(configuration.titleFollowsPage)
        #expect(configuration.userScripts == [.disableZoom])
    }

    @Test func paymentPreset() throws {
        let configuration = try ConfiguratorFactory.make(for: .payment).build()
        #expect(configuration.navigationChain.names == ["payment", "deep-link", "default-allow"])
        #expect(configuration.strategies.identifiers == ["page", "user", "ping"])
        #expect(!configuration.disablesZoom)
    }

    @Test func demoPreset() throws {
        let resources = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: resources) }
        try FileManager.default.createDirectory(at: resources.appendingPathComponent("demo"), withIntermediateDirectories: true)
        let locator = ResourceLocator(environment: ["VITRINE_RESOURCES": resources.path],
                                      executable: URL(fileURLWithPath: "/nonexistent/bin/vitrine"))
        #expect(locator.directory.standardizedFileURL == resources.standardizedFileURL)

        let configuration = try ConfiguratorFactory.make(for: .demo, resources: locator).build()
        #expect(configuration.navigationChain.names == [
            "deep-link", "home", "native-route", "payment", "external-browser", "origin-allowlist", "default-allow",
        ])
        #expect(configuration.strategies.identifiers == ["page", "user", "ping"])
        #expect(configuration.disablesZoom)
        #expect(configuration.titleFollowsPage)
        #expect(configuration.title == "Vitrine demo")
        #expect(configuration.startURL == url("app://demo/index.html"))
        #expect(configuration.appDirectory?.host == ConfiguratorFactory.demoHost)
        #expect(configuration.appDirectory?.path.standardizedFileURL
            == resources.appendingPathComponent("demo").standardizedFileURL)
        #expect(configuration.appOrigins == [origin("app://demo")])
    }

    @MainActor
    @Test func demoPresetChainBehaves() async throws {
        let resources = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: resources) }
        try FileManager.default.createDirectory(at: resources.appendingPathComponent("demo"), withIntermediateDirectories: true)
        let locator = ResourceLocator(environment: ["VITRINE_RESOURCES": resources.path],
                                      executable: URL(fileURLWithPath: "/nonexistent/bin/vitrine"))
        let configuration = try ConfiguratorFactory.make(for: .demo, resources: locator).build()
        let host = TestHost(showHomeResult: true, confirmAnswer: false)
        let context = NavigationContext(host: host, appOrigins: configuration.appOrigins)
        let chain = configuration.navigationChain

        func decide(_ string: String, _ type: NavigationAction.NavigationType = .linkActivated) async -> NavigationDecision {
            await chain.decide(NavigationAction(url: url(string), navigationType: type), context: context)
        }
        #expect(await decide("vitrine-demo://cart") == NavigationDecision(policy: .cancel, handler: "deep-link"))
        #expect(await decide("app://demo/index.html") == NavigationDecision(policy: .cancel, handler: "home"))
        #expect(await decide("app://demo/index.html", .other) == NavigationDecision(policy: .allow, handler: "default-allow"))
        #expect(await decide("app://demo/product/7") == NavigationDecision(policy: .cancel, handler: "native-route"))
        #expect(await decide("app://demo/pay/now") == NavigationDecision(policy: .cancel, handler: "payment"))
        #expect(await decide("https://example.org/") == NavigationDecision(policy: .cancel, handler: "external-browser"))
        #expect(await decide("https://example.org/", .other) == NavigationDecision(policy: .cancel, handler: "origin-allowlist"))
        #expect(await decide("app://demo/about.html") == NavigationDecision(policy: .allow, handler: "default-allow"))
        #expect(host.presentedRoutes.map(\.name) == ["deep-link", "product"])
        #expect(host.openedURLs == [url("https://example.org/")])
        #expect(host.confirmations.count == 1)
    }

    /// Your own app: no demo routes, no stock id, your origin open, other sites refused.
    @MainActor
    @Test func appPresetIsNeutral() async throws {
        let web = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: web) }
        let configuration = try ConfigOverrides(preset: .app, appDirectory: web).configurator().build()
        #expect(configuration.navigationChain.names == ["external-browser", "origin-allowlist", "default-allow"])
        #expect(configuration.strategies.identifiers == ["page", "user", "ping"])
        #expect(configuration.remembersWindowState)
        #expect(configuration.titleFollowsPage)
        #expect(configuration.startURL == url("app://app/index.html"))
        #expect(configuration.applicationID != ApplicationID.stock)
        #expect(configuration.appOrigins == [origin("app://app")])

        let host = TestHost(showHomeResult: true, confirmAnswer: false)
        let context = NavigationContext(host: host, appOrigins: configuration.appOrigins)
        func decide(_ string: String, _ type: NavigationAction.NavigationType = .linkActivated) async -> NavigationDecision {
            await configuration.navigationChain.decide(NavigationAction(url: url(string), navigationType: type), context: context)
        }
        // The demo's routes, payment prefix and deep-link scheme are ordinary paths here.
        for path in ["app://app/product/42", "app://app/shop/7", "app://app/pay/now", "app://app/index.html"] {
            #expect(await decide(path) == NavigationDecision(policy: .allow, handler: "default-allow"), "\(path)")
        }
        #expect(await decide("vitrine-demo://cart", .other) == NavigationDecision(policy: .cancel, handler: "origin-allowlist"))
        #expect(await decide("https://example.org/") == NavigationDecision(policy: .cancel, handler: "external-browser"))
        #expect(await decide("https://example.org/", .other) == NavigationDecision(policy: .cancel, handler: "origin-allowlist"))
        #expect(await decide("file:///etc/passwd", .other) == NavigationDecision(policy: .cancel, handler: "origin-allowlist"))
        #expect(host.presentedRoutes.isEmpty && host.confirmations.isEmpty)
        #expect(host.openedURLs == [url("https://example.org/")])
    }

    /// Nothing to open: the demo, as before; anything named: not the demo.
    @Test func theDemoIsTheDefaultOnlyWhenNothingIsNamed() throws {
        #expect(try ConfigOverrides().configurator().build().navigationChain.names.contains("native-route"))
        #expect(try !ConfigOverrides(startURL: url("https://a.example/")).configurator().build()
            .navigationChain.names.contains("native-route"))
    }

    @Test func presetsDeriveFromDefault() throws {
        for preset in Preset.allCases where ![.app, .demo, .kiosk].contains(preset) {
            let configuration = try ConfiguratorFactory.make(for: preset).build()
            #expect(configuration.navigationChain.names.last == "default-allow", "\(preset) ends open")
            #expect(configuration.strategies.identifiers == ["page", "user", "ping"], "\(preset) strategies")
        }
    }

    @Test func kioskPresetFailsClosedAndLocksDown() throws {
        let configuration = try ConfiguratorFactory.make(for: .kiosk).build()
        #expect(configuration.navigationChain.names == ["origin-allowlist", "default-allow"])
        #expect(configuration.strategies.identifiers == ["user", "ping"], "no page strategy: a kiosk page cannot close its window")
        #expect(configuration.fullscreen)
        #expect(configuration.disablesZoom)
        #expect(!configuration.developerTools)
        #expect(configuration.kiosk == KioskOptions())
        #expect(configuration.kiosk?.lockdown == true)
    }

    @MainActor @Test func aKioskNeverShowsBrowserInternalPages() async throws {
        let configuration = try ConfiguratorFactory.make(for: .kiosk).startURL(url("https://kiosk.example/")).build()
        let context = NavigationContext(host: TestHost(), appOrigins: configuration.appOrigins)
        // (`about:blank` frames of the kiosk's pages pass: empty frames need it.)
        for page in ["about:config", "about:gpu", "view-source:https://kiosk.example/", "webkit://gpu", "inspector://"] {
            for target in [NavigationAction.Target.currentView, .newWindow] {
                let decision = await configuration.navigationChain.decide(
                    NavigationAction(url: url(page), navigationType: .linkActivated, target: target), context: context)
                #expect(decision == NavigationDecision(policy: .cancel, handler: "origin-allowlist"), "\(page) \(target)")
            }
        }
        #expect(await configuration.navigationChain.decide(NavigationAction(url: url("https://kiosk.example/next")),
                                                           context: context).policy == .allow)
    }

    @Test func presetNames() {
        #expect(Preset.allCases == [.default, .productPage, .payment, .app, .demo, .kiosk])
        #expect(Preset(name: "default") == .default)
        #expect(Preset(name: "product-page") == .productPage)
        #expect(Preset(name: "productPage") == .productPage)
        #expect(Preset(name: "PRODUCT-PAGE") == .productPage)
        #expect(Preset(name: "payment") == .payment)
        #expect(Preset(name: "app") == .app)
        #expect(Preset(name: "demo") == .demo)
        #expect(Preset(name: "kiosk") == .kiosk)
        #expect(Preset(name: "kiosque") == nil)
        #expect(Preset(name: "") == nil)
        #expect(Preset(name: "product_page") == nil)
    }

    @Test func commandLineNames() {
        #expect(Preset.default.commandLineName == "default")
        #expect(Preset.productPage.commandLineName == "product-page")
        #expect(Preset.payment.commandLineName == "payment")
        #expect(Preset.app.commandLineName == "app")
        for preset in Preset.allCases {
            #expect(Preset(name: preset.commandLineName) == preset, "\(preset) round-trips through its command-line name")
        }
    }
}
