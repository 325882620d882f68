import Foundation
import Testing
import Vitrine
import VitrineConfigFile
import VitrineTestSupport

@Suite("Config file: every section maps onto the Configuration")
struct ConfigFileTests {
    @Test func everySectionMapsOntoTheConfiguration() throws {
        let folder = try ConfigFolder()
        try folder.makeFolder("www")
        try folder.write("certs/kiosk.pem", "-----BEGIN CERTIFICATE-----\n")
        let path = try folder.write("full.toml", """
            preset = "kiosk"
            start-url = "https://example.org/"
            title = "Lobby"
            allowed-origins = ["https://example.org", "https://cdn.example.org:8443"]
            app-dir = "www"
            user-agent = "Vitrine-Test/1"
            developer-tools = true
            disable-zoom = false
            title-follows-page = true
            error-pages = false
            crash-recovery = false
            download-directory = "downloads"

            [window]
            width = 1280
            height = 800
            fullscreen = false

            [navigation]
            decision-timeout = 2.5

            [[navigation.handlers]]
            type = "deep-link"
            schemes = ["MyApp"]
            [[navigation.handlers]]
            type = "home"
            [[navigation.handlers]]
            type = "native-route"
            routes = { "/product/new" = "new-product", "/product/:id" = "product", "/a" = "a" }
            origins = ["https://example.org"]
            [[navigation.handlers]]
            type = "payment"
            path-prefixes = ["/pay", "/checkout"]
            timeout = 60
            [[navigation.handlers]]
            type = "external-browser"
            origins = ["https://example.org"]
            schemes = ["https", "mailto"]
            [[navigation.handlers]]
            type = "origin-allowlist"
            origins = ["https://example.org", "https://cdn.example.org:8443"]
            [[navigation.handlers]]
            type = "default-allow"
            downloads = false

            [strategies]
            enabled = ["ping", "page"]
            [strategies.origins]
            ping = ["https://example.org", "app://app"]

            [[tabs]]
            title = "Home"
            url = "https://example.org/"
            [[tabs]]
            title = "Map"
            url = "https://example.org/map"

            [kiosk]
            lockdown = false
            hide-cursor = true
            idle-reset = 120
            idle-clear-data = true
            inhibit-screen-blanking = false
            crash-loop-limit = 5
            crash-loop-window = 90
            crash-loop-backoff = 0
            unresponsive-timeout = 7.5
            external-links = "block"

            [permissions]
            "https://example.org" = ["geolocation", "notifications"]
            "https://cdn.example.org:8443" = ["pointer-lock"]

            [[tls.trust]]
            host = "Kiosk.Local"
            certificate = "certs/kiosk.pem"
            """)
        let file = try ConfigFile(path: path)
        #expect(file.preset == .kiosk)
        let configuration = try file.configuration()

        #expect(configuration.startURL == URL(string: "https://example.org/"))
        #expect(configuration.title == "Lobby")
        #expect(configuration.allowedOrigins == [origin("https://example.org"), origin("https://cdn.example.org:8443")])
        #expect(configuration.appDirectory == AppDirectory(path: URL(fileURLWithPath: folder.path + "/www"), host: "app"))
        #expect(configuration.userAgent == "Vitrine-Test/1")
        #expect(configuration.developerTools)
        #expect(!configuration.disablesZoom)  // the kiosk preset's true, turned off
        #expect(configuration.titleFollowsPage)
        #expect(!configuration.showsErrorPages)
        #expect(!configuration.recoversFromCrashes)
        #expect(configuration.downloadDirectory == URL(fileURLWithPath: folder.path + "/downloads"))
        #expect(configuration.windowSize == WindowSize(width: 1280, height: 800))
        #expect(!configuration.fullscreen)

        let chain = configuration.navigationChain
        #expect(chain.defaultTimeout == .milliseconds(2500))
        #expect(chain.names == ["deep-link", "home", "native-route", "payment", "external-browser", "origin-allowlist", "default-allow"])
        let deepLink = try #require(chain.handlers[0] as? DeepLinkHandler)
        #expect(deepLink.schemes == ["myapp"])
        let home = try #require(chain.handlers[1] as? HomePageHandler)
        #expect(home.homeURL == URL(string: "https://example.org/"))
        let routes = try #require(chain.handlers[2] as? NativeRouteHandler)
        // In the order written, not the parser's (sorted) order: the first match wins.
        #expect(routes.routes == [RoutePattern("/product/new", name: "new-product"), RoutePattern("/product/:id", name: "product"), RoutePattern("/a", name: "a")])
        #expect(routes.origins == [origin("https://example.org")])
        let payment = try #require(chain.handlers[3] as? PaymentHandler)
        #expect(payment.pathPrefixes == ["/pay", "/checkout"])
        #expect(payment.timeout == .seconds(60))
        let external = try #require(chain.handlers[4] as? ExternalBrowserHandler)
        #expect(external.appOrigins == [origin("https://example.org")])
        #expect(external.externalSchemes == ["https", "mailto"])
        let allowlist = try #require(chain.handlers[5] as? OriginAllowlistHandler)
        #expect(allowlist.origins == [origin("https://example.org"), origin("https://cdn.example.org:8443")])
        let allow = try #require(chain.handlers[6] as? DefaultAllowHandler)
        #expect(!allow.allowsDownloads)

        #expect(configuration.strategies.identifiers == ["ping", "page"])
        #expect(configuration.strategyOrigins == ["ping": [origin("https://example.org"), origin("app://app")]])
        #expect(configuration.tabs == [
            Tab(title: "Home", url: URL(string: "https://example.org/")!),
            Tab(title: "Map", url: URL(string: "https://example.org/map")!),
        ])
        #expect(configuration.kiosk == KioskOptions(
            lockdown: false, hidesCursor: true, idleReset: .seconds(120), clearsDataOnIdleReset: true,
            inhibitsScreenBlanking: false, crashLoopLimit: 5, crashLoopWindow: .seconds(90), crashLoopBackoff: .zero,
            unresponsiveTimeout: .milliseconds(7500)))
        #expect(configuration.grantedPermissions(for: origin("https://example.org")) == [.geolocation, .notifications])
        #expect(configuration.grantedPermissions(for: origin("https://cdn.example.org:8443")) == [.pointerLock])
        #expect(configuration.grantedPermissions(for: origin("https://other.example")) == [])
        #expect(configuration.tlsExceptions == [TLSException(host: "kiosk.local", certificatePath: folder.path + "/certs/kiosk.pem")])
    }

    @Test func aFileWithoutPresetStartsFromDefault() throws {
        let configuration = try ConfigFile(text: #"start-url = "https://example.org/""#, path: "/tmp/minimal.toml").configuration()
        #expect(configuration.navigationChain.names == ["default-allow"])
        #expect(configuration.strategies.identifiers == ["page", "user", "ping"])
        #expect(configuration.title == "Vitrine")
        #expect(configuration.kiosk == nil)
        #expect(configuration.windowSize == WindowSize(width: 1024, height: 768))
        #expect(configuration.downloadDirectory == nil)
        let allow = try #require(configuration.navigationChain.handlers.first as? DefaultAllowHandler)
        #expect(!allow.allowsDownloads)
    }

    @Test func thePresetIsRefinedNotReplaced() throws {
        let configuration = try ConfigFile(text: """
            preset = "kiosk"
            start-url = "https://example.org/"
            [window]
            width = 800
            """, path: "/tmp/k.toml").configuration()
        #expect(configuration.navigationChain.names == ["origin-allowlist", "default-allow"])
        #expect(configuration.fullscreen)
        #expect(configuration.disablesZoom)
        #expect(configuration.windowSize == WindowSize(width: 800, height: 768))
        #expect(configuration.strategies.identifiers == ["user", "ping"])
        #expect(configuration.kiosk == KioskOptions())
        #expect(configuration.title == "Vitrine kiosk")
    }

    @Test func presetNamesAcceptBothSpellings() throws {
        for name in ["product-page", "productPage"] {
            let file = try ConfigFile(text: "preset = \"\(name)\"", path: "/tmp/p.toml")
            #expect(file.preset == .productPage)
        }
    }

    @Test func aKioskTableMakesAnyPresetAKiosk() throws {
        let configuration = try ConfigFile(text: """
            start-url = "https://example.org/"
            [kiosk]
            idle-reset = 0
            """, path: "/tmp/k.toml").configuration()
        #expect(configuration.kiosk == KioskOptions(idleReset: nil))
        #expect(configuration.navigationChain.names == ["default-allow"])
    }

    @Test func externalLinksToTheBrowserGoBeforeTheAllowlist() throws {
        let configuration = try ConfigFile(text: """
            preset = "kiosk"
            start-url = "https://example.org/"
            [kiosk]
            external-links = "browser"
            """, path: "/tmp/k.toml").configuration()
        #expect(configuration.navigationChain.names == ["external-browser", "origin-allowlist", "default-allow"])

        // Without an allow-list it goes before default-allow; an existing one is kept.
        let open = try ConfigFile(text: """
            start-url = "https://example.org/"
            [kiosk]
            external-links = "browser"
            """, path: "/tmp/k.toml").configuration()
        #expect(open.navigationChain.names == ["external-browser", "default-allow"])
        let explicit = try ConfigFile(text: """
            start-url = "https://example.org/"
            [[navigation.handlers]]
            type = "external-browser"
            schemes = ["https"]
            [[navigation.handlers]]
            type = "default-allow"
            [kiosk]
            external-links = "browser"
            """, path: "/tmp/k.toml").configuration()
        #expect(explicit.navigationChain.names == ["external-browser", "default-allow"])
        #expect((explicit.navigationChain.handlers[0] as? ExternalBrowserHandler)?.externalSchemes == ["https"])
    }

    @Test func aDownloadDirectoryLetsThePresetsChainDownload() throws {
        let configuration = try ConfigFile(text: """
            start-url = "https://example.org/"
            download-directory = "/var/lib/vitrine/downloads"
            """, path: "/tmp/d.toml").configuration()
        #expect(configuration.downloadDirectory == URL(fileURLWithPath: "/var/lib/vitrine/downloads"))
        #expect((configuration.navigationChain.handlers.last as? DefaultAllowHandler)?.allowsDownloads == true)

        // A chain from the file: default-allow downloads unless it says otherwise.
        let explicit = try ConfigFile(text: """
            download-directory = "/tmp/downloads"
            [[navigation.handlers]]
            type = "default-allow"
            [[tabs]]
            title = "A"
            url = "https://a.example/"
            """, path: "/tmp/d.toml").configuration()
        #expect((explicit.navigationChain.handlers.last as? DefaultAllowHandler)?.allowsDownloads == true)
    }

    @Test func homeDefaultsToTheStartPage() throws {
        let folder = try ConfigFolder()
        try folder.makeFolder("app")
        let withStart = try ConfigFile(text: """
            start-url = "https://example.org/start"
            [[navigation.handlers]]
            type = "home"
            [[navigation.handlers]]
            type = "default-allow"
            """, path: folder.path + "/h.toml").configuration()
        #expect((withStart.navigationChain.handlers[0] as? HomePageHandler)?.homeURL == URL(string: "https://example.org/start"))

        let withAppDirectory = try ConfigFile(text: """
            app-dir = "app"
            [[navigation.handlers]]
            type = "home"
            [[navigation.handlers]]
            type = "default-allow"
            """, path: folder.path + "/h.toml").configuration()
        #expect(withAppDirectory.startURL == URL(string: "app://app/index.html"))
        #expect((withAppDirectory.navigationChain.handlers[0] as? HomePageHandler)?.homeURL == URL(string: "app://app/index.html"))

        let explicit = try ConfigFile(text: """
            start-url = "https://example.org/start"
            [[navigation.handlers]]
            type = "home"
            url = "https://example.org/home"
            [[navigation.handlers]]
            type = "default-allow"
            """, path: folder.path + "/h.toml").configuration()
        #expect((explicit.navigationChain.handlers[0] as? HomePageHandler)?.homeURL == URL(string: "https://example.org/home"))
    }

    @Test func anAppDirectoryReplacesTheAppPresetsDemo() throws {
        let folder = try ConfigFolder()
        try folder.makeFolder("site")
        let configuration = try ConfigFile(text: """
            preset = "app"
            app-dir = "site"
            """, path: folder.path + "/a.toml").configuration()
        #expect(configuration.appDirectory == AppDirectory(path: URL(fileURLWithPath: folder.path + "/site"), host: "app"))
        #expect(configuration.startURL == URL(string: "app://app/index.html"))
        #expect(configuration.appOrigins == [origin("app://app")])
    }

    @Test func relativePathsResolveAgainstTheFilesFolder() throws {
        let folder = try ConfigFolder()
        try folder.makeFolder("deep/www")
        try folder.write("deep/cert.pem", "x")
        let configuration = try ConfigFile(text: """
            app-dir = "./www/../www"
            download-directory = "../dl"
            [[tls.trust]]
            host = "h.local"
            certificate = "cert.pem"
            """, path: folder.path + "/deep/c.toml").configuration()
        #expect(configuration.appDirectory?.path.path == folder.path + "/deep/www")
        #expect(configuration.downloadDirectory?.path == folder.path + "/dl")
        #expect(configuration.tlsExceptions.first?.certificatePath == folder.path + "/deep/cert.pem")
    }

    @Test func inlineTablesWorkLikeSections() throws {
        let configuration = try ConfigFile(text: """
            start-url = "https://example.org/"
            window = { width = 640, height = 480 }
            navigation = { handlers = [{ type = "payment" }, { type = "default-allow" }] }
            tabs = [{ title = "One", url = "https://example.org/1" }]
            kiosk.idle-reset = 30
            """, path: "/tmp/i.toml").configuration()
        #expect(configuration.windowSize == WindowSize(width: 640, height: 480))
        #expect(configuration.navigationChain.names == ["payment", "default-allow"])
        #expect((configuration.navigationChain.handlers[0] as? PaymentHandler)?.pathPrefixes == ["/pay"])
        #expect(configuration.tabs.map(\.title) == ["One"])
        #expect(configuration.kiosk?.idleReset == .seconds(30))
    }

    @Test func strategiesAreReplacedInTheOrderListed() throws {
        let configuration = try ConfigFile(text: """
            preset = "app"
            [strategies]
            enabled = ["ping"]
            """, path: "/tmp/s.toml").configuration()
        #expect(configuration.strategies.identifiers == ["ping"])
        let none = try ConfigFile(text: "[strategies]\nenabled = []", path: "/tmp/s.toml").configuration()
        #expect(none.strategies.identifiers == [])
    }

    @Test func theConvenienceLoadersReturnTheConfigurator() throws {
        let folder = try ConfigFolder()
        let path = try folder.write("c.toml", #"title = "Loaded""#)
        #expect(try ConfigFile.load(path: path).build().title == "Loaded")
        #expect(try ConfigFile.parse(text: #"title = "Parsed""#, path: "x.toml").title("Refined").build().title == "Refined")
    }
}
