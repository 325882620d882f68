import Foundation
import Testing
import Vitrine
@testable import VitrineGTK
import VitrineTestingGTK

extension WebKitTests {
    /// The bundled demo, under the `app` preset, clicked through as a user would.
    @Suite
    @MainActor
    struct DemoAppTests {
        let home = URL(string: "app://demo/index.html")!

        func openDemo() async throws -> (WebContainer, MemoryEventLog) {
            let demo = try ContainerFixture(ConfiguratorFactory.make(for: .demo))
            try await demo.start(waitingFor: home)
            return (demo.container, demo.log)
        }

        func click(_ id: String, in container: WebContainer) async throws {
            _ = try await container.evaluate("document.getElementById('\(id)').click()")
        }

        /// The latest request decision for `url`.
        func decision(for url: String, in events: MemoryEventLog) -> Decided? {
            for case let .navigation(decided, handler, policy, _, _, .request) in events.events.reversed() where decided == url {
                return Decided(handler, policy)
            }
            return nil
        }

        @Test func productAndShopLinksOpenNativePages() async throws {
            let (container, events) = try await openDemo()
            defer { container.close() }
            try await click("product", in: container)
            #expect(await TestLoop.wait { container.stage.presentedRoute != nil })
            #expect(container.stage.presentedRoute?.name == "product")
            #expect(container.stage.presentedRoute?.parameters == ["id": "1234"])
            #expect(await TestLoop.wait { decision(for: "app://demo/product/1234", in: events) != nil })
            #expect(decision(for: "app://demo/product/1234", in: events) == Decided("native-route", .cancel))

            container.stage.dismissRoute()
            try await click("shop", in: container)
            #expect(await TestLoop.wait { container.stage.presentedRoute?.name == "shop" })
            #expect(container.stage.presentedRoute?.parameters == ["id": "99"])
            #expect(container.currentURL == home, "the web view stayed on the demo")
        }

        @Test func deepLinksAreHandledNativelyAndExternalLinksLeave() async throws {
            let (container, events) = try await openDemo()
            defer { container.close() }
            try await click("deeplink", in: container)
            #expect(await TestLoop.wait { container.stage.presentedRoute?.name == "deep-link" })
            #expect(container.stage.presentedRoute?.parameters["host"] == "settings")
            #expect(await TestLoop.wait { decision(for: "vitrine-demo://settings/display", in: events) != nil })
            #expect(decision(for: "vitrine-demo://settings/display", in: events) == Decided("deep-link", .cancel))

            container.stage.dismissRoute()
            try await click("external", in: container)
            #expect(await TestLoop.wait { !container.externallyOpenedURLs.isEmpty })
            #expect(container.externallyOpenedURLs == [URL(string: "https://www.example.org/")!])
            #expect(await TestLoop.wait { decision(for: "https://www.example.org/", in: events) != nil })
            #expect(decision(for: "https://www.example.org/", in: events) == Decided("external-browser", .cancel))
            #expect(container.currentURL == home)
        }

        @Test func theHomeLinkIsDecidedByTheHomeHandler() async throws {
            let (container, events) = try await openDemo()
            defer { container.close() }
            try await click("about", in: container)
            let about = URL(string: "app://demo/about.html")!
            #expect(await TestLoop.wait {
                events.events.contains { $0.isLoad(.finished, of: about.absoluteString) }
            })
            try await click("home", in: container)
            #expect(await TestLoop.wait { decision(for: home.absoluteString, in: events)?.handler == "home" })
            #expect(await TestLoop.wait { container.currentURL == home })
        }

        @Test(arguments: [true, false])
        func thePaymentPageWaitsForNativeVerification(confirm: Bool) async throws {
            let (container, events) = try await openDemo()
            defer { container.close() }
            let checkout = "app://demo/pay/checkout.html"
            try await click("payment", in: container)
            #expect(await TestLoop.wait { container.feature(DialogFeature.self)!.isShowingDialog })
            #expect(decision(for: checkout, in: events) == nil, "nothing is decided while the dialog is open")
            container.feature(DialogFeature.self)!.respond(accept: confirm)
            #expect(await TestLoop.wait { decision(for: checkout, in: events) != nil })
            #expect(await TestLoop.wait { decision(for: checkout, in: events) != nil })
            #expect(decision(for: checkout, in: events) == Decided("payment", confirm ? .allow : .cancel))
            if confirm {
                #expect(await TestLoop.wait { container.currentURL?.absoluteString == checkout })
            } else {
                // Settled by a round trip through the page, then by a later navigation: had
                // the cancelled one started, its load events would be logged before these.
                #expect(try await container.evaluate("location.href") == .string(home.absoluteString))
                #expect(container.currentURL == home)
                try await click("about", in: container)
                let about = "app://demo/about.html"
                #expect(await TestLoop.wait { events.events.contains { $0.isLoad(.finished, of: about) } })
                #expect(!events.events.contains { if case .load(_, checkout, _, _, _) = $0 { return true }; return false })
            }
        }

        @Test func theDemosButtonsPostMessages() async throws {
            let (container, events) = try await openDemo()
            defer { container.close() }
            try await click("who", in: container)
            #expect(await TestLoop.wait {
                events.events.contains { $0 == .message(name: "user", outcome: .resolved, error: nil, origin: "app://demo") }
            })
            // The page shows the answer once its Promise resolves.
            let shown = await container.valueInPage(
                "document.getElementById('output').textContent.includes(\(JSONValue.string(NSUserName()).jsonText)) && document.getElementById('output').textContent")
            #expect(shown?.stringValue?.contains(NSUserName()) == true, "output: \(String(describing: shown))")
            try await click("title", in: container)
            #expect(await TestLoop.wait { container.windowTitle.hasPrefix("Title set from the page") })
        }
    }
}
