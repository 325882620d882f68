import Foundation
import Testing
import Vitrine
import VitrineTesting

@MainActor
@Suite("PaymentHandler")
struct PaymentHandlerTests {
    @Test func verifiedPaymentIsAllowed() async {
        let seen = CallLog()
        let handler = PaymentHandler { url, _ in
            seen.record(url.absoluteString)
            return true
        }
        let result = await handler.handle(NavigationAction(url: url("https://shop.test/pay/checkout")),
                                          context: NavigationContext(host: TestHost()))
        #expect(result == .decide(.allow))
        #expect(seen.names == ["https://shop.test/pay/checkout"])
    }

    @Test func declinedPaymentIsCancelled() async {
        let handler = PaymentHandler { _, _ in false }
        let result = await handler.handle(NavigationAction(url: url("https://shop.test/pay")),
                                          context: NavigationContext(host: TestHost()))
        #expect(result == .decide(.cancel))
    }

    @Test func asyncVerifierIsAwaited() async {
        let handler = PaymentHandler { _, _ in
            try? await Task.sleep(for: .milliseconds(30))
            return true
        }
        let chain = NavigationChain([handler, RecordingHandler("after", answering: .decide(.cancel))])
        let decision = await chain.decide(NavigationAction(url: url("https://shop.test/pay/1")),
                                          context: NavigationContext(host: TestHost()))
        #expect(decision == NavigationDecision(policy: .allow, handler: "payment"))
    }

    @Test(arguments: ["https://shop.test/payment", "https://shop.test/paypal/x", "https://shop.test/", "https://shop.test/cart/pay",
                      "https://shop.test/product/pay"])
    func nonPaymentPathsPass(_ string: String) async {
        let called = CallLog()
        let handler = PaymentHandler { _, _ in
            called.record("verify")
            return true
        }
        let result = await handler.handle(NavigationAction(url: url(string)), context: NavigationContext(host: TestHost()))
        #expect(result == .pass)
        #expect(called.names.isEmpty)
    }

    @Test func customPrefixes() async {
        let handler = PaymentHandler(pathPrefixes: ["/checkout/", "/billing"]) { _, _ in true }
        let context = NavigationContext(host: TestHost())
        #expect(await handler.handle(NavigationAction(url: url("https://s.test/checkout/1")), context: context) == .decide(.allow))
        #expect(await handler.handle(NavigationAction(url: url("https://s.test/billing")), context: context) == .decide(.allow))
        #expect(await handler.handle(NavigationAction(url: url("https://s.test/billings")), context: context) == .pass)
        #expect(await handler.handle(NavigationAction(url: url("https://s.test/pay")), context: context) == .pass)
    }

    @Test func defaultVerifierAsksTheHost() async {
        let handler = PaymentHandler()
        #expect(handler.pathPrefixes == ["/pay"])
        #expect(handler.timeout == .seconds(300), "a person has time to confirm")
        let yes = TestHost(confirmAnswer: true)
        #expect(await handler.handle(NavigationAction(url: url("https://s.test/pay/now")), context: NavigationContext(host: yes))
            == .decide(.allow))
        #expect(yes.confirmations.count == 1)
        #expect(yes.confirmations.first?.message.contains("https://s.test/pay/now") == true)
        let no = TestHost(confirmAnswer: false)
        #expect(await handler.handle(NavigationAction(url: url("https://s.test/pay/now")), context: NavigationContext(host: no))
            == .decide(.cancel))
        #expect(no.confirmations.count == 1)
    }
}

@MainActor
@Suite("ExternalBrowserHandler")
struct ExternalBrowserHandlerTests {
    let app = origin("https://app.example.com")

    @Test func outsideLinkOpensExternallyAndCancels() async {
        let host = TestHost()
        let handler = ExternalBrowserHandler(appOrigins: [app])
        let outside = url("https://news.example.org/story")
        let result = await handler.handle(NavigationAction(url: outside, navigationType: .linkActivated),
                                          context: NavigationContext(host: host))
        #expect(result == .decide(.cancel))
        #expect(host.openedURLs == [outside])
    }

    @Test func newWindowAndUserGestureCountAsUserRequests() async {
        let host = TestHost()
        let handler = ExternalBrowserHandler(appOrigins: [app])
        let context = NavigationContext(host: host)
        #expect(await handler.handle(NavigationAction(url: url("https://a.test/"), target: .newWindow), context: context)
            == .decide(.cancel))
        #expect(await handler.handle(NavigationAction(url: url("mailto:someone@example.com"), isUserGesture: true), context: context)
            == .decide(.cancel))
        #expect(host.openedURLs.map(\.absoluteString) == ["https://a.test/", "mailto:someone@example.com"])
    }

    @Test func appOriginStaysInTheView() async {
        let host = TestHost()
        let handler = ExternalBrowserHandler(appOrigins: [app])
        let result = await handler.handle(
            NavigationAction(url: url("HTTPS://APP.example.com:443/page"), navigationType: .linkActivated),
            context: NavigationContext(host: host))
        #expect(result == .pass)
        #expect(host.openedURLs.isEmpty)
    }

    @Test func nonUserRedirectPasses() async {
        let host = TestHost()
        let handler = ExternalBrowserHandler(appOrigins: [app])
        let result = await handler.handle(
            NavigationAction(url: url("https://tracker.example.net/"), navigationType: .other, isRedirect: true),
            context: NavigationContext(host: host))
        #expect(result == .pass)
        #expect(host.openedURLs.isEmpty)
    }

    @Test func schemesTheDesktopDoesNotHandlePass() async {
        let host = TestHost()
        let handler = ExternalBrowserHandler(appOrigins: [app])
        let result = await handler.handle(NavigationAction(url: url("ftp://files.example.net/x"), navigationType: .linkActivated),
                                          context: NavigationContext(host: host))
        #expect(result == .pass)
        #expect(host.openedURLs.isEmpty)
    }

    @Test func usesContextAppOriginsWhenNoneGiven() async {
        let handler = ExternalBrowserHandler()
        #expect(handler.appOrigins == nil)
        let host = TestHost()
        let context = NavigationContext(host: host, appOrigins: [app])
        #expect(await handler.handle(NavigationAction(url: url("https://app.example.com/x"), navigationType: .linkActivated),
                                     context: context) == .pass)
        #expect(host.openedURLs.isEmpty)
        #expect(await handler.handle(NavigationAction(url: url("https://other.example.com/x"), navigationType: .linkActivated),
                                     context: context) == .decide(.cancel))
        #expect(host.openedURLs.map(\.absoluteString) == ["https://other.example.com/x"])
    }

    @Test func explicitOriginsOverrideContext() async {
        let handler = ExternalBrowserHandler(appOrigins: [origin("https://mine.test")])
        let host = TestHost()
        let context = NavigationContext(host: host, appOrigins: [app])
        #expect(await handler.handle(NavigationAction(url: url("https://app.example.com/x"), navigationType: .linkActivated),
                                     context: context) == .decide(.cancel))
    }
}
