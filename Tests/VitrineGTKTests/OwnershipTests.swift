import CWebKitGTK
import Foundation
import Testing
import Vitrine
@testable import VitrineGTK
import VitrineTestingGTK

/// A navigation handler that holds each decision for `held` until the test lets it go,
/// then allows it: what the container does with a late "allow" once it is gone.
@MainActor
final class HeldDecisions {
    private var waiting: [CheckedContinuation<Void, Never>] = []
    private(set) var reached = 0

    func hold() async {
        reached += 1
        await withCheckedContinuation { waiting.append($0) }
    }

    func release() {
        for continuation in waiting { continuation.resume() }
        waiting.removeAll()
    }
}

struct HoldingHandler: NavigationActionHandler {
    let name = "holding"
    let held: String
    let decisions: HeldDecisions

    @MainActor
    func handle(_ action: NavigationAction, context: NavigationContext) async -> HandlerResult {
        guard action.url.path.hasSuffix(held) else { return .pass }
        await decisions.hold()
        return .decide(.allow)
    }
}

extension WebKitTests {
    /// One owner per job: what a container holds goes with it, and whatever arrives for an
    /// owner that is gone is refused.
    @Suite
    @MainActor
    struct OwnershipTests {
        static let page = "<!doctype html><title>page</title><p>page</p>"

        /// A later navigation in another container, finished: by then the network process
        /// has long sent any request the first one made.
        private func settle(on server: LoopbackHTTPServer) async throws {
            let after = server.url("after.html")
            let other = WebContainer(configuration: try ConfiguratorFactory.make(for: .default).startURL(after).build())
            let events = MemoryEventLog()
            other.addEventSink(events)
            other.start()
            defer { other.close() }
            try #require(await TestLoop.wait { events.events.contains { $0.isLoad(.finished, of: after.absoluteString) } })
        }

        @Test func aContainerClosedMidNavigationLoadsNothing() async throws {
            TestLoop.start()
            let server = try LoopbackHTTPServer(pages: ["index.html": Self.page, "target.html": Self.page, "after.html": Self.page])
            defer { server.stop() }
            let decisions = HeldDecisions()
            let container = WebContainer(configuration: try ConfiguratorFactory.make(for: .default)
                .startURL(server.url("index.html"))
                .prependingHandler(HoldingHandler(held: "target.html", decisions: decisions))
                .build())
            let events = MemoryEventLog()
            container.addEventSink(events)
            container.start()
            try #require(await TestLoop.wait { events.events.contains { $0.isLoad(.finished, of: server.url("index.html").absoluteString) } })
            let outcome = Task { await container.load(server.url("target.html")) }
            try #require(await TestLoop.wait { decisions.reached == 1 }, "the navigation is waiting for its handler")

            container.close()
            // The caller waiting for the load is answered, once, with no decision.
            let closedOutcome = await outcome.value
            #expect({ if case .abandoned = closedOutcome { true } else { false } }(), "\(closedOutcome)")
            decisions.release() // the handler now allows: too late, nobody is there to carry it out
            try await settle(on: server)

            #expect(!server.requestedPaths.contains("/target.html"), "requests: \(server.requestedPaths)")
            let target = server.url("target.html").absoluteString
            #expect(!events.events.contains { if case .navigation(target, _, .allow, _, _, _) = $0 { return true }; return false })
        }

        @Test func aContainerDroppedBeforeItsFirstDecisionLoadsNothing() async throws {
            TestLoop.start()
            let server = try LoopbackHTTPServer(pages: ["target.html": Self.page, "after.html": Self.page])
            defer { server.stop() }
            weak var dropped: WebContainer?
            do {
                // Never shown: nothing keeps it but this scope.
                let container = WebContainer(configuration: try ConfiguratorFactory.make(for: .default).build())
                dropped = container
                container.startLoading(server.url("target.html"))
            }
            #expect(dropped == nil, "nothing keeps an unshown container alive")
            try await settle(on: server)
            #expect(!server.requestedPaths.contains("/target.html"), "requests: \(server.requestedPaths)")
        }

        @Test func aDroppedContainerReleasesItsPanesAndEveryConnection() async throws {
            TestLoop.start()
            weak var pane: WebPane?
            let (view, manager): (gpointer, gpointer)
            do {
                let container = WebContainer(configuration: try ConfiguratorFactory.make(for: .kiosk)
                    .startURL(URL(string: "app://nowhere/")!).fullscreen(false).strategy(PingStrategy()).build())
                let first = try #require(container.stage.panes.first)
                pane = first
                view = g_object_ref(gptr(first.webView))
                manager = g_object_ref(gptr(first.contentManager.pointer))
                #expect(Self.handlers(of: "decide-policy", on: view, type: webkit_web_view_get_type()) > 0)
            }
            defer { g_object_unref(view); g_object_unref(manager) }
            #expect(pane == nil, "the pane went with its container")
            for signal in ["decide-policy", "create", "load-changed", "load-failed", "permission-request", "authenticate",
                           "web-process-terminated", "load-failed-with-tls-errors", "event", "context-menu"] {
                #expect(Self.handlers(of: signal, on: view, type: webkit_web_view_get_type()) == 0, "\(signal) still connected")
            }
            #expect(Self.handlers(of: "script-message-with-reply-received", on: manager,
                                  type: webkit_user_content_manager_get_type()) == 0)
        }

        /// Whether any handler, with or without a detail, is connected to `signal` on `instance`.
        private static func handlers(of signal: String, on instance: gpointer, type: GType) -> Int {
            let id = g_signal_lookup(signal, type)
            return g_signal_handler_find(instance, G_SIGNAL_MATCH_ID, id, 0, nil, nil, nil) == 0 ? 0 : 1
        }

        @Test func aConfirmationOpenAtCloseIsAnsweredNoAndItsDialogDestroyed() async throws {
            let harness = try WebTestHarness(pages: ["index.html": Self.page])
            try await harness.open("index.html")
            let container = harness.container
            let dialog = try #require(container.feature(DialogFeature.self))
            let answer = Task { @MainActor in await container.confirm(title: "Pay?", message: "Pay 10 €?") }
            try #require(await TestLoop.wait { dialog.isShowingDialog })
            let dialogs = toplevelTitles().filter { $0 == "Pay?" }
            #expect(dialogs.count == 1)
            harness.close()
            #expect(await answer.value == false, "closing answers the question: no")
            #expect(!toplevelTitles().contains("Pay?"), "the dialog went with its window")
            #expect(!dialog.isShowingDialog)
        }

        @Test func aRoutePageGoesWithItsContainerClosedOrDropped() async throws {
            let harness = try WebTestHarness(pages: ["index.html": Self.page])
            try await harness.open("index.html")
            let route = NativeRoute(name: "product", parameters: ["id": "7"], url: WebTestHarness.url("product/7"))
            harness.container.present(route)
            #expect(harness.container.stage.presentedRoute == route)
            harness.close()
            #expect(harness.container.stage.presentedRoute == nil, "closing dismissed the route's page")

            weak var dropped: WebContainer?
            do {
                let container = WebContainer(configuration: try ConfiguratorFactory.make(for: .default).build())
                dropped = container
                container.present(route)
                #expect(container.stage.presentedRoute == route)
            }
            #expect(dropped == nil, "an unshown container with a route page is released, page and all")
        }

        @Test func twoContainersServeTheirOwnAppFilesUnderTheSameHost() async throws {
            let first = try WebTestHarness(pages: ["index.html": "<!doctype html><title>first</title>", "who.txt": "first"])
            defer { first.close() }
            let second = try WebTestHarness(pages: ["index.html": "<!doctype html><title>second</title>", "who.txt": "second"])
            defer { second.close() }
            try await first.open("index.html")
            try await second.open("index.html")
            let script = "return await (await fetch('who.txt')).text();"
            #expect(try await first.container.evaluateAsync(script) == "first")
            #expect(try await second.container.evaluateAsync(script) == "second")
            #expect(try await first.container.evaluate("document.title") == "first")
        }

        /// The titles of GTK's toplevel windows that are still alive.
        private func toplevelTitles() -> [String] {
            guard let list = gtk_window_list_toplevels() else { return [] }
            defer { g_list_free(list) }
            var titles: [String] = []
            var node: UnsafeMutablePointer<GList>? = list
            while let current = node {
                if let window = current.pointee.data {
                    titles.append(string(gtk_window_get_title(window.assumingMemoryBound(to: GtkWindow.self))) ?? "")
                }
                node = current.pointee.next
            }
            return titles
        }
    }
}
