import CWebKitGTK
import Foundation
import Testing
import Vitrine
@testable import VitrineGTK
import VitrineTesting
import VitrineTestingGTK

extension WebKitTests {
    /// Deep links (`[app] url-schemes`) reaching a real page: told once the page has loaded,
    /// through the chain's deep-link handler, to pages granted `app` only; links of other
    /// schemes, forged by the page itself or too long never reach it.
    @Suite @MainActor
    struct DeepLinkWindowTests {
        static let page = """
            <!doctype html><title>links</title><script>
            window.links = [];
            vitrine.app.on('deep-link', (link) => { links.push(link.url + ' ' + (link.query || '')); document.title = String(links.length); });
            </script>
            """

        private func harness(granting: Bool) throws -> WebTestHarness {
            let app = Origin(string: "app://\(WebTestHarness.host)")!
            return try WebTestHarness(pages: ["index.html": Self.page, "other.html": Self.page]) {
                let schemes = $0.preference(\.urlSchemes, ["myapp"])
                return granting ? schemes.grantCapabilities([.app], to: app) : schemes
            }
        }

        private func details(_ harness: WebTestHarness, _ action: ContainerEvent.NativeAction) -> [String] {
            harness.events.events.details(of: action)
        }

        @Test func aLinkBeforeTheLoadWaitsAndLinksWhileItRunsArriveAtOnce() async throws {
            let harness = try harness(granting: true)
            defer { harness.close() }
            // Handed over while the page is not there yet: told once it has loaded.
            #expect(harness.container.feature(DeepLinkFeature.self)!.open(URL(string: "myapp://open?id=3")!) == nil)
            try await harness.open("index.html")
            #expect(await harness.container.valueInPage("links.length === 1 && links") == ["myapp://open?id=3 id=3"])
            #expect(harness.decisions(for: URL(string: "myapp://open?id=3")!).map(\.handler) == [DeepLinkHandler.typeName])
            #expect(harness.container.feature(DeepLinkFeature.self)!.open(URL(string: "myapp://cart/7")!) == nil)
            #expect(await harness.container.valueInPage("links.length === 2 && links[1]") == "myapp://cart/7 ")

            // Refused before the chain: other schemes, javascript:, overlong.
            for refused in ["https://evil.example/", "javascript:alert(1)", "myapp://x?" + String(repeating: "a", count: 3000)] {
                #expect(harness.container.feature(DeepLinkFeature.self)!.open(URL(string: refused)!) != nil, "\(refused.prefix(40)) accepted")
            }
            // The page's own link to the app's scheme is cancelled and told to nobody: a page
            // (or a frame in it) cannot pose as the desktop.
            _ = try await harness.container.evaluateAsync("location.href = 'myapp://forged'; return true;")
            #expect(await TestLoop.wait { details(harness, .deepLinkRefused).contains { $0.hasPrefix("myapp://forged") } })
            #expect(harness.container.feature(DeepLinkFeature.self)!.open(URL(string: "myapp://last")!) == nil)
            #expect(await harness.container.valueInPage("links.length === 3 && links[2]") == "myapp://last ")
            #expect(try await harness.container.evaluateAsync("return links.length;") == 3, "nothing else arrived")
            #expect(details(harness, .deepLinkRefused).count == 4)
        }

        @Test func aPageNotGrantedAppHearsNoDeepLink() async throws {
            let harness = try harness(granting: false)
            defer { harness.close() }
            try await harness.open("index.html")
            #expect(harness.container.feature(DeepLinkFeature.self)!.open(URL(string: "myapp://secret?token=1")!) == nil)
            #expect(await TestLoop.wait { details(harness, .deepLink).contains("myapp://secret?token=<redacted> to 0 page(s)") })
            #expect(try await harness.container.evaluateAsync("return links.length;") == 0)
        }
    }
}
