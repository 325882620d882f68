import Foundation
import Testing
import Vitrine

@Suite("Configurator and Configuration")
struct ConfiguratorTests {
    @Test func emptyConfiguratorDefaults() throws {
        let configuration = try Configurator().build()
        #expect(configuration.startURL == nil)
        #expect(configuration.title == "Vitrine")
        #expect(configuration.navigationChain.names == [])
        #expect(configuration.strategies.identifiers == [])
        #expect(configuration.userScripts.isEmpty)
        #expect(!configuration.disablesZoom)
        #expect(!configuration.titleFollowsPage)
        #expect(configuration.windowSize == WindowSize(width: 1024, height: 768))
        #expect(!configuration.fullscreen)
        #expect(configuration.userAgent == nil)
        #expect(!configuration.developerTools)
        #expect(configuration.allowedOrigins.isEmpty)
        #expect(configuration.appDirectory == nil)
        #expect(configuration.appOrigins.isEmpty)
    }

    @Test func buildCarriesOptions() throws {
        let configuration = try Configurator()
            .startURL(url("https://shop.example.com/index.html"))
            .title("Shop")
            .windowSize(width: 800, height: 600)
            .fullscreen()
            .userAgent("Vitrine/1.0 Test")
            .developerTools()
            .titleFollowsPage()
            .navigationHandlers([DeepLinkHandler(schemes: ["shop"]), DefaultAllowHandler()])
            .build()
        #expect(configuration.startURL == url("https://shop.example.com/index.html"))
        #expect(configuration.title == "Shop")
        #expect(configuration.windowSize == WindowSize(width: 800, height: 600))
        #expect(configuration.fullscreen)
        #expect(configuration.userAgent == "Vitrine/1.0 Test")
        #expect(configuration.developerTools)
        #expect(configuration.titleFollowsPage)
        #expect(!configuration.disablesZoom)
        #expect(configuration.navigationChain.names == ["deep-link", "default-allow"])
    }

    @Test func booleanOptionsCanBeTurnedOffAgain() throws {
        let configuration = try Configurator()
            .fullscreen().fullscreen(false)
            .developerTools().developerTools(false)
            .titleFollowsPage().titleFollowsPage(false)
            .disableZoom().disableZoom(false)
            .userAgent("x").userAgent(nil)
            .build()
        #expect(!configuration.fullscreen)
        #expect(!configuration.developerTools)
        #expect(!configuration.titleFollowsPage)
        #expect(!configuration.disablesZoom)
        #expect(configuration.userScripts.isEmpty)
        #expect(configuration.userAgent == nil)
    }

    @Test func disableZoomAttachesItsScriptExactlyOnce() throws {
        let custom = UserScript(source: "console.log('hi')", injectionTime: .documentStart, frames: .allFrames)
        let configurator = Configurator().userScript(custom).disableZoom().disableZoom()
        let configuration = try configurator.build()
        #expect(configuration.disablesZoom)
        #expect(configuration.userScripts == [custom, .disableZoom])
        #expect(configuration.userScripts.filter { $0 == .disableZoom }.count == 1)
        // Building twice does not accumulate scripts either.
        let again = try configurator.build()
        #expect(again.userScripts == [custom, .disableZoom])
    }

    @Test func disableZoomScriptShape() {
        let script = UserScript.disableZoom
        #expect(script.source.contains("user-scalable=no"))
        #expect(script.source.contains("data-vitrine-zoom"))
        #expect(script.frames == .topFrame)
        #expect(script.injectionTime == .documentEnd)
    }

    @Test(arguments: [(0, 600), (800, 0), (-1, 600), (800, -5)])
    func invalidWindowSizeThrows(_ size: (Int, Int)) {
        #expect(throws: ConfigurationError.self) {
            try Configurator().windowSize(width: size.0, height: size.1).build()
        }
    }

    @Test func invalidWindowSizeMessage() {
        let error = #expect(throws: ConfigurationError.self) {
            try Configurator().windowSize(width: 0, height: 10).build()
        }
        #expect(error?.message.contains("0x10") == true)
    }

    @Test func startURLWithoutSchemeThrows() throws {
        let schemeless = try #require(URL(string: "example.com/index.html"))
        let error = #expect(throws: ConfigurationError.self) {
            try Configurator().startURL(schemeless).build()
        }
        #expect(error?.message.contains("no scheme") == true)
        #expect(error?.description == error?.message)
    }

    @Test func appDirectoryMustBeAFolder() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("not-a-folder.txt")
        try Data("x".utf8).write(to: file)
        #expect(throws: ConfigurationError.self) { try Configurator().appDirectory(file).build() }
        #expect(throws: ConfigurationError.self) {
            try Configurator().appDirectory(directory.appendingPathComponent("missing")).build()
        }
        let configuration = try Configurator().appDirectory(directory, host: "shop").build()
        #expect(configuration.appDirectory == AppDirectory(path: directory, host: "shop"))
        #expect(configuration.startURL == url("app://shop/index.html"), "the app directory's index is the start page")
        #expect(configuration.appOrigins == [origin("app://shop")])
    }

    @Test func explicitStartURLWinsOverAppDirectory() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let configuration = try Configurator()
            .appDirectory(directory)
            .startURL(url("app://app/start.html"))
            .build()
        #expect(configuration.startURL == url("app://app/start.html"))
        #expect(configuration.appDirectory?.rootURL == url("app://app/"))
    }

    @Test func configuratorIsAValueType() throws {
        let original = Configurator().title("Original").windowSize(width: 640, height: 480)
        var refined = original.title("Refined").disableZoom().fullscreen().allowOrigin(origin("https://a.test"))
        refined = refined.prependingHandler(NamedHandler("extra")).strategy(PageStrategy())
        let fromOriginal = try original.build()
        let fromRefined = try refined.build()
        #expect(fromOriginal.title == "Original")
        #expect(!fromOriginal.disablesZoom)
        #expect(!fromOriginal.fullscreen)
        #expect(fromOriginal.userScripts.isEmpty)
        #expect(fromOriginal.allowedOrigins.isEmpty)
        #expect(fromOriginal.navigationChain.names == [])
        #expect(fromOriginal.strategies.identifiers == [])
        #expect(fromRefined.title == "Refined")
        #expect(fromRefined.disablesZoom)
        #expect(fromRefined.fullscreen)
        #expect(fromRefined.windowSize == WindowSize(width: 640, height: 480))
        #expect(fromRefined.navigationChain.names == ["extra"])
        #expect(fromRefined.strategies.identifiers == ["page"])
    }

    @Test func presetRefinementDoesNotLeakIntoThePreset() throws {
        let preset = ConfiguratorFactory.make(for: .default)
        let refined = preset.disableZoom().prependingHandler(NamedHandler("mine"))
        #expect(try refined.build().navigationChain.names == ["mine", "default-allow"])
        #expect(try preset.build().navigationChain.names == ["default-allow"])
        #expect(try !preset.build().disablesZoom)
        #expect(try ConfiguratorFactory.make(for: .default).build().navigationChain.names == ["default-allow"])
    }

    @Test func chainOptions() throws {
        let configuration = try Configurator()
            .navigationChain(NavigationChain([NamedHandler("a"), NamedHandler("b")], defaultTimeout: .seconds(2)))
            .prependingHandler(NamedHandler("head"))
            .mapChain { $0.inserting(NamedHandler("mid"), before: "b").removing(named: "a") }
            .build()
        #expect(configuration.navigationChain.names == ["head", "mid", "b"])
        #expect(configuration.navigationChain.defaultTimeout == .seconds(2))
        let rehandled = try Configurator()
            .decisionTimeout(.seconds(4))
            .navigationHandlers([NamedHandler("x")])
            .build()
        #expect(rehandled.navigationChain.names == ["x"])
        #expect(rehandled.navigationChain.defaultTimeout == .seconds(4), "replacing handlers keeps the timeout")
    }

    @Test func appOriginsIncludeStartURLAndAllowedOrigins() throws {
        let configuration = try Configurator()
            .startURL(url("https://shop.example.com:443/index.html"))
            .allowOrigin(origin("https://cdn.example.com"))
            .allowOrigin(origin("http://localhost:3000"))
            .allowOrigin(origin("https://cdn.example.com"))
            .build()
        #expect(configuration.allowedOrigins == [origin("https://cdn.example.com"), origin("http://localhost:3000")])
        #expect(configuration.appOrigins == [
            origin("https://shop.example.com"), origin("https://cdn.example.com"), origin("http://localhost:3000"),
        ])
        #expect(!configuration.appOrigins.contains(origin("http://shop.example.com")))
    }

    @Test func appOriginsIgnoreOpaqueStartURL() throws {
        let configuration = try Configurator().startURL(url("about:blank")).build()
        #expect(configuration.appOrigins.isEmpty)
    }

    @Test func appDirectoryRootURL() {
        #expect(AppDirectory.scheme == "app")
        #expect(AppDirectory(path: URL(fileURLWithPath: "/tmp")).rootURL == url("app://app/"))
        #expect(AppDirectory(path: URL(fileURLWithPath: "/tmp"), host: "demo").rootURL == url("app://demo/"))
    }
}
