import Foundation
import Testing
import Vitrine
@testable import VitrineGTK
import VitrineTesting
import VitrineTestingGTK

/// `DeepLinkFeature` on a window-less `FeatureTestHost`: what it decides (refusals, the
/// wait for the page, the cap on waiting links, what a closed window gets) needs no display.
/// Its real page and real chain are `DeepLinkWindowTests`'.
@Suite @MainActor
struct DeepLinkFeatureTests {
    private func attached(kiosk: Bool = false) throws -> (DeepLinkFeature, FeatureTestHost) {
        // A kiosk's configuration cannot name url-schemes: its window refuses links anyway.
        let configurator = kiosk ? ConfiguratorFactory.make(for: .kiosk)
            : ConfiguratorFactory.make(for: .app).preference(\.urlSchemes, ["myapp"])
        let configuration = try configurator.startURL(URL(string: "https://app.example/")!).build()
        let host = FeatureTestHost(configuration: configuration)
        let feature = DeepLinkFeature()
        feature.attach(to: host)
        // As the window's host does: the chain's deep-link route goes back to the feature.
        host.testHost.onPresent = { [weak feature] route in
            if route.name == DeepLinkHandler.typeName { feature?.passedChain(route.url) }
        }
        return (feature, host)
    }

    /// Opens `link` and waits for the chain's decision; answers what `open` said.
    private func openThroughChain(_ link: String, _ feature: DeepLinkFeature, _ host: FeatureTestHost) async -> String? {
        let before = host.testHost.presentedRoutes.count
        let refusal = feature.open(URL(string: link)!)
        guard refusal == nil else { return refusal }
        // The chain decides on the main loop: wait for its route or its refusal.
        let refusals = host.details(.deepLinkRefused).count
        #expect(await TestLoop.wait { host.testHost.presentedRoutes.count > before || host.details(.deepLinkRefused).count > refusals })
        return nil
    }

    @Test func aLinkWaitsForThePageThenGoesToTheAppsGranteesOnly() async throws {
        let (feature, host) = try attached()
        #expect(await openThroughChain("myapp://open?id=3", feature, host) == nil)
        #expect(host.emitted.isEmpty, "told before a page could listen")
        feature.loadChanged(PaneLoad(event: .finished, url: URL(string: "https://app.example/")))
        #expect(host.emitted.map(\.name) == ["deep-link"])
        guard case .granted(.app) = host.emitted.first?.audience else {
            Issue.record("sent to \(String(describing: host.emitted.first?.audience))")
            return
        }
        #expect(host.emitted.first?.payload.jsonText.contains("myapp://open?id=3") == true)
        // Once a page has loaded, links arrive at once.
        #expect(await openThroughChain("myapp://cart/7", feature, host) == nil)
        #expect(host.emitted.count == 2)
        #expect(host.details(.deepLink).count == 2)
    }

    @Test func refusedLinksNeverReachTheChainOrThePages() async throws {
        let (feature, host) = try attached()
        for refused in ["https://evil.example/", "javascript:alert(1)", "otherapp://x", "myapp://x?" + String(repeating: "a", count: 3000)] {
            #expect(feature.open(URL(string: refused)!) != nil, "\(refused.prefix(40)) accepted")
        }
        #expect(host.testHost.presentedRoutes.isEmpty)
        #expect(host.details(.deepLinkRefused).count == 4)
        // A route the desktop never handed over (a page's own link to the scheme) is dropped.
        feature.loadChanged(PaneLoad(event: .finished, url: nil))
        feature.passedChain(URL(string: "myapp://forged")!)
        #expect(host.emitted.isEmpty)
        #expect(host.details(.deepLinkRefused).last?.hasPrefix("myapp://forged") == true)
    }

    @Test func aKioskTakesNoneAndAClosedWindowNone() async throws {
        let (kioskFeature, kioskHost) = try attached(kiosk: true)
        #expect(kioskFeature.open(URL(string: "myapp://open")!)?.contains("kiosk") == true)
        #expect(kioskHost.testHost.presentedRoutes.isEmpty)

        let (feature, host) = try attached()
        host.isClosed = true
        #expect(feature.open(URL(string: "myapp://open")!)?.contains("closed") == true)
        #expect(host.testHost.presentedRoutes.isEmpty && host.emitted.isEmpty)
    }

    @Test func atMostCapacityLinksWaitForThePageAndTearDownDropsThem() async throws {
        let (feature, host) = try attached()
        for index in 0..<(DeepLinkFeature.capacity + 3) {
            #expect(await openThroughChain("myapp://flood/\(index)", feature, host) == nil)
        }
        #expect(host.details(.deepLinkRefused).count == 3, "the links past the cap are refused")
        feature.tearDown()
        feature.loadChanged(PaneLoad(event: .finished, url: nil))
        #expect(host.emitted.isEmpty, "a torn-down feature tells nobody")
    }
}
