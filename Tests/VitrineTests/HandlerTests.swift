import Foundation
import Testing
import Vitrine
import VitrineTesting

@MainActor
@Suite("DeepLinkHandler")
struct DeepLinkHandlerTests {
    let host = TestHost()
    let handler = DeepLinkHandler(schemes: ["Vitrine-Demo"])

    @Test func customSchemeIsPresentedNativelyAndCancelled() async {
        let link = url("vitrine-demo://product/42?ref=mail")
        let result = await handler.handle(NavigationAction(url: link, navigationType: .linkActivated),
                                          context: NavigationContext(host: host))
        #expect(result == .decide(.cancel))
        #expect(host.presentedRoutes == [
            NativeRoute(name: "deep-link", parameters: ["scheme": "vitrine-demo", "host": "product", "path": "/42"], url: link),
        ])
        #expect(host.openedURLs.isEmpty)
    }

    @Test func schemeMatchIsCaseInsensitive() async {
        let result = await handler.handle(NavigationAction(url: url("VITRINE-DEMO://home")),
                                          context: NavigationContext(host: host))
        #expect(result == .decide(.cancel))
        #expect(host.presentedRoutes.map(\.name) == ["deep-link"])
        #expect(host.presentedRoutes.first?.parameters["scheme"] == "vitrine-demo")
    }

    @Test(arguments: ["https://example.com/", "http://example.com/x", "other-app://thing", "about:blank"])
    func otherSchemesPass(_ string: String) async {
        let result = await handler.handle(NavigationAction(url: url(string), navigationType: .linkActivated),
                                          context: NavigationContext(host: host))
        #expect(result == .pass)
        #expect(host.untouched)
    }
}

@MainActor
@Suite("HomePageHandler")
struct HomePageHandlerTests {
    let home = url("app://demo/index.html")
    var handler: HomePageHandler { HomePageHandler(homeURL: home) }

    @Test func homeLinkShownNativelyIsCancelled() async {
        let host = TestHost(showHomeResult: true)
        let result = await handler.handle(NavigationAction(url: home, navigationType: .linkActivated),
                                          context: NavigationContext(host: host))
        #expect(result == .decide(.cancel))
        #expect(host.showHomeCalls == 1)
    }

    @Test func homeLinkNotShownNativelyLoads() async {
        let host = TestHost(showHomeResult: false)
        let result = await handler.handle(NavigationAction(url: home, navigationType: .linkActivated),
                                          context: NavigationContext(host: host))
        #expect(result == .decide(.allow))
        #expect(host.showHomeCalls == 1)
    }

    @Test func fragmentStillMeansHome() async {
        let host = TestHost(showHomeResult: true)
        let result = await handler.handle(
            NavigationAction(url: url("APP://Demo/index.html#top"), navigationType: .linkActivated),
            context: NavigationContext(host: host))
        #expect(result == .decide(.cancel))
    }

    @Test(arguments: [NavigationAction.NavigationType.other, .formSubmitted, .backForward, .reload, .formResubmitted])
    func otherNavigationTypesPass(_ type: NavigationAction.NavigationType) async {
        let host = TestHost(showHomeResult: true)
        let result = await handler.handle(NavigationAction(url: home, navigationType: type),
                                          context: NavigationContext(host: host))
        #expect(result == .pass)
        #expect(host.showHomeCalls == 0)
    }

    @Test(arguments: ["app://demo/other.html", "app://other/index.html", "https://demo/index.html", "app://demo/",
                       "app://demo/index.html?tab=1"])
    func otherDocumentsPass(_ string: String) async {
        let host = TestHost(showHomeResult: true)
        let result = await handler.handle(NavigationAction(url: url(string), navigationType: .linkActivated),
                                          context: NavigationContext(host: host))
        #expect(result == .pass)
        #expect(host.showHomeCalls == 0)
    }

    @Test func rootHomeMatchesEmptyPath() async {
        let host = TestHost(showHomeResult: true)
        let result = await HomePageHandler(homeURL: url("https://shop.example.com/"))
            .handle(NavigationAction(url: url("https://shop.example.com"), navigationType: .linkActivated),
                    context: NavigationContext(host: host))
        #expect(result == .decide(.cancel))
    }
}

@MainActor
@Suite("NativeRouteHandler and RoutePattern")
struct NativeRouteHandlerTests {
    let handler = NativeRouteHandler(routes: [
        RoutePattern("/product/:id", name: "product"),
        RoutePattern("/shop/:shop/item/:item", name: "item"),
    ])

    @Test func matchingPathPresentsRouteWithParameters() async {
        let host = TestHost()
        let link = url("https://shop.example.com/product/1234?x=1")
        let result = await handler.handle(NavigationAction(url: link, navigationType: .linkActivated),
                                          context: NavigationContext(host: host))
        #expect(result == .decide(.cancel))
        #expect(host.presentedRoutes == [NativeRoute(name: "product", parameters: ["id": "1234"], url: link)])
    }

    @Test func severalParameters() async {
        let host = TestHost()
        let result = await handler.handle(NavigationAction(url: url("https://x.test/shop/north/item/7")),
                                          context: NavigationContext(host: host))
        #expect(result == .decide(.cancel))
        #expect(host.presentedRoutes.first?.name == "item")
        #expect(host.presentedRoutes.first?.parameters == ["shop": "north", "item": "7"])
    }

    @Test(arguments: ["https://x.test/product", "https://x.test/product/", "https://x.test/product/1/extra",
                      "https://x.test/products/1", "https://x.test/", "https://x.test"])
    func nonMatchingPathsPass(_ string: String) async {
        let host = TestHost()
        let result = await handler.handle(NavigationAction(url: url(string)), context: NavigationContext(host: host))
        #expect(result == .pass)
        #expect(host.presentedRoutes.isEmpty)
    }

    @Test func originRestriction() async {
        let restricted = NativeRouteHandler(routes: [RoutePattern("/product/:id", name: "product")],
                                            origins: [origin("https://shop.example.com")])
        let host = TestHost()
        let context = NavigationContext(host: host)
        #expect(await restricted.handle(NavigationAction(url: url("https://evil.example.net/product/1")), context: context) == .pass)
        #expect(await restricted.handle(NavigationAction(url: url("http://shop.example.com/product/1")), context: context) == .pass)
        #expect(await restricted.handle(NavigationAction(url: url("data:text/html,/product/1")), context: context) == .pass)
        #expect(host.presentedRoutes.isEmpty)
        #expect(await restricted.handle(NavigationAction(url: url("HTTPS://Shop.Example.com:443/product/9")), context: context)
            == .decide(.cancel))
        #expect(host.presentedRoutes.map(\.parameters) == [["id": "9"]])
    }

    @Test func parametersArePercentDecodedOnce() async {
        let host = TestHost()
        let context = NavigationContext(host: host)
        #expect(await handler.handle(NavigationAction(url: url("https://x.test/product/caf%C3%A9%20noir")), context: context)
            == .decide(.cancel))
        // An encoded slash is part of the value, not a separator.
        #expect(await handler.handle(NavigationAction(url: url("https://x.test/product/a%2Fb")), context: context)
            == .decide(.cancel))
        // "%2525" is an encoded "%25": decoding twice would give "%".
        #expect(await handler.handle(NavigationAction(url: url("https://x.test/product/50%2525")), context: context)
            == .decide(.cancel))
        #expect(host.presentedRoutes.map { $0.parameters["id"] } == ["café noir", "a/b", "50%25"])
    }

    @Test func routePatternMatching() {
        let pattern = RoutePattern("/product/:id", name: "product")
        #expect(pattern.name == "product")
        #expect(pattern.pattern == "/product/:id")
        #expect(pattern.match("/product/1234") == ["id": "1234"])
        #expect(pattern.match("/product/1234/") == ["id": "1234"])
        #expect(pattern.match("/product/caf%C3%A9") == ["id": "café"])
        #expect(pattern.match("/product/a%20b") == ["id": "a b"])
        #expect(pattern.match("/product/100%") == ["id": "100%"], "an invalid escape is kept as written")
        #expect(pattern.match("/product") == nil)
        #expect(pattern.match("/product/1/2") == nil)
        #expect(pattern.match("/item/1") == nil)
        #expect(pattern.match("") == nil)
        #expect(RoutePattern("/", name: "root").match("/") == [:])
        #expect(RoutePattern("/about", name: "about").match("/about") == [:])
        #expect(RoutePattern("/about", name: "about").match("/About") == nil)
    }
}


@MainActor
@Suite("OriginAllowlistHandler")
struct OriginAllowlistHandlerTests {
    let handler = OriginAllowlistHandler(origins: [origin("https://app.example.com"), origin("http://localhost:8080")])

    @Test(arguments: ["data:text/html,<script>alert(1)</script>", "javascript:alert(1)", "file:///etc/passwd",
                      "https://evil.example.net/", "http://app.example.com/", "https://app.example.com:8443/",
                      "http://localhost:8081/"])
    func disallowedAreCancelled(_ string: String) async {
        let result = await handler.handle(NavigationAction(url: url(string)), context: NavigationContext(host: TestHost()))
        #expect(result == .decide(.cancel))
    }

    @Test(arguments: ["https://app.example.com/", "https://APP.example.com:443/deep/page?q=1", "http://localhost:8080/x"])
    func allowedPass(_ string: String) async {
        let result = await handler.handle(NavigationAction(url: url(string)), context: NavigationContext(host: TestHost()))
        #expect(result == .pass)
    }

    @Test func aboutBlankPassesInAPageOfAnAllowedOriginOnly() async {
        let context = NavigationContext(host: TestHost())
        let framed = NavigationAction(url: url("about:blank"), parentOrigin: Origin(string: "https://app.example.com"))
        #expect(await handler.handle(framed, context: context) == .pass)
        let foreign = NavigationAction(url: url("about:blank"), parentOrigin: Origin(string: "https://example.com"))
        #expect(await handler.handle(foreign, context: context) == .decide(.cancel))
        #expect(await handler.handle(NavigationAction(url: url("about:blank")), context: context) == .decide(.cancel),
                "no page to inherit from: opaque")
    }

    @Test func usesContextAppOriginsWhenNoneGiven() async {
        let handler = OriginAllowlistHandler()
        let context = NavigationContext(host: TestHost(), appOrigins: [origin("app://demo")])
        #expect(await handler.handle(NavigationAction(url: url("app://demo/index.html")), context: context) == .pass)
        #expect(await handler.handle(NavigationAction(url: url("https://example.com/")), context: context) == .decide(.cancel))
        let empty = NavigationContext(host: TestHost())
        #expect(await handler.handle(NavigationAction(url: url("app://demo/index.html")), context: empty) == .decide(.cancel),
                "no app origins: fail closed")
    }
}

@MainActor
@Suite("DefaultAllowHandler")
struct DefaultAllowHandlerTests {
    let context = NavigationContext(host: TestHost())

    @Test func decidesResponses() {
        #expect(DefaultAllowHandler().decidesResponses)
        #expect(DefaultAllowHandler().name == "default-allow")
        #expect(!DeepLinkHandler(schemes: []).decidesResponses, "request-only handlers skip responses by default")
    }

    @Test func requestsAreAllowed() async {
        let result = await DefaultAllowHandler().handle(NavigationAction(url: url("https://anything.test/")), context: context)
        #expect(result == .decide(.allow))
    }

    @Test func showableResponsesAreAllowed() async {
        #expect(await DefaultAllowHandler().handle(responseAction("https://a.test/", canShow: true), context: context)
            == .decide(.allow))
        #expect(await DefaultAllowHandler(allowsDownloads: true).handle(responseAction("https://a.test/", canShow: true), context: context)
            == .decide(.allow))
    }

    @Test func unshowableResponsesAreCancelledUnlessDownloadsAreAllowed() async {
        let zip = responseAction("https://a.test/f.zip", mimeType: "application/zip", canShow: false)
        #expect(await DefaultAllowHandler().handle(zip, context: context) == .decide(.cancel))
        #expect(await DefaultAllowHandler(allowsDownloads: true).handle(zip, context: context) == .decide(.download))
    }

    @Test func inAChainItDecidesTheResponsePhase() async {
        let chain = NavigationChain([DeepLinkHandler(schemes: ["x"]), DefaultAllowHandler(allowsDownloads: true)])
        let decision = await chain.decide(responseAction("https://a.test/f.zip", canShow: false), context: context)
        #expect(decision == NavigationDecision(policy: .download, handler: "default-allow"))
    }
}
