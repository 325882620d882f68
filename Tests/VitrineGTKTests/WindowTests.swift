import CWebKitGTK
import Foundation
import Testing
import Vitrine
@testable import VitrineGTK
import VitrineTestingGTK

/// Cancels navigations to URLs whose path ends with a given suffix; passes the rest.
struct BlockingHandler: NavigationActionHandler {
    let name = "blocker"
    let suffix: String

    func handle(_ action: NavigationAction, context: NavigationContext) async -> HandlerResult {
        action.url.path.hasSuffix(suffix) ? .decide(.cancel) : .pass
    }
}

/// Decides only after a delay: the WebKit decision must be held until then.
struct LateHandler: NavigationActionHandler {
    let name = "late"
    let suffix: String
    let delay: Duration
    let policy: NavigationPolicy

    func handle(_ action: NavigationAction, context: NavigationContext) async -> HandlerResult {
        guard action.url.path.hasSuffix(suffix) else { return .pass }
        try? await Task.sleep(for: delay)
        return .decide(policy)
    }
}

/// Echoes its body back, or rejects when asked to.
struct EchoStrategy: ScriptMessageStrategy {
    static let identifier = "echo"
    let tag: String

    func handle(_ message: ScriptMessage, context: ScriptMessageContext) async throws -> JSONValue {
        if message.body["fail"] == .bool(true) { throw ScriptMessageError("asked to fail") }
        return ["tag": .string(tag), "body": message.body]
    }
}

let linkPage = """
    <!doctype html><html><head><title>Start page</title></head><body>
    <a id="blocked" href="blocked.html">blocked</a>
    <a id="late" href="late.html">late</a>
    <a id="plain" href="second.html">second</a>
    </body></html>
    """
let otherPage = "<!doctype html><html><head><title>Other</title></head><body>other</body></html>"

extension WebKitTests {
    /// Real WebKitGTK views under Xvfb. Serialized: GTK has one thread and one loop.
    @Suite
    @MainActor
    struct WindowTests {
        @Test func clickedLinkGoesThroughTheChainAndACancelledNavigationNeverLoads() async throws {
            let harness = try WebTestHarness(
                pages: ["index.html": linkPage, "blocked.html": otherPage, "second.html": otherPage],
                configure: { $0.prependingHandler(BlockingHandler(suffix: "blocked.html")) })
            defer { harness.close() }
            try await harness.open("index.html")

            let blocked = WebTestHarness.url("blocked.html")
            _ = try await harness.container.evaluate("document.getElementById('blocked').click()")
            #expect(await TestLoop.wait { !harness.decisions(for: blocked).isEmpty })
            let decision = try #require(harness.decisions(for: blocked).first)
            #expect(decision.handler == "blocker")
            #expect(decision.policy == .cancel)

            // The same page still shows, and a later allowed click proves the view was alive.
            let second = WebTestHarness.url("second.html")
            _ = try await harness.container.evaluate("document.getElementById('plain').click()")
            #expect(await harness.waitForLoad(second))
            #expect(harness.loads(of: blocked).isEmpty, "a cancelled navigation must never load")
            #expect(harness.decisions(for: second).first?.handler == "default-allow")
            let navigationType = harness.events.events.compactMap { event -> NavigationAction.NavigationType? in
                if case let .navigation(url, _, _, type, _, .request) = event, url == second.absoluteString { return type }
                return nil
            }.first
            #expect(navigationType == .linkActivated)
        }

        @Test func anAsyncHandlersLateDecisionIsApplied() async throws {
            let harness = try WebTestHarness(
                pages: ["index.html": linkPage, "late.html": linkPage, "blocked.html": otherPage, "second.html": otherPage],
                configure: {
                    $0.prependingHandler(LateHandler(suffix: "late.html", delay: .milliseconds(400), policy: .allow))
                        .prependingHandler(LateHandler(suffix: "blocked.html", delay: .milliseconds(400), policy: .cancel))
                })
            defer { harness.close() }
            try await harness.open("index.html")

            let late = WebTestHarness.url("late.html")
            let clicked = ContinuousClock.now
            _ = try await harness.container.evaluate("document.getElementById('late').click()")
            #expect(await harness.waitForLoad(late))
            #expect(ContinuousClock.now - clicked >= .milliseconds(400), "the load waited for the handler")
            #expect(harness.decisions(for: late).map(\.handler) == ["late"])

            // A late cancel: WebKit waited, then dropped the navigation.
            let blocked = WebTestHarness.url("blocked.html")
            _ = try await harness.container.evaluate("document.getElementById('blocked').click()")
            #expect(await TestLoop.wait { !harness.decisions(for: blocked).isEmpty })
            #expect(harness.decisions(for: blocked).first?.policy == .cancel)
            // Settled by a round trip through the page, then by a later navigation: had the
            // cancelled one started, its load events would be logged before these.
            #expect(try await harness.container.evaluate("location.href") == .string(late.absoluteString))
            #expect(harness.container.currentURL == late)
            let second = WebTestHarness.url("second.html")
            _ = try await harness.container.evaluate("document.getElementById('plain').click()")
            try await harness.fixture.nextLoad(of: second)
            #expect(harness.loads(of: blocked).isEmpty)
        }

        @Test func aHandlerThatRunsOutOfTimeFailsClosed() async throws {
            let harness = try WebTestHarness(
                pages: ["index.html": linkPage, "late.html": otherPage],
                configure: {
                    $0.prependingHandler(LateHandler(suffix: "late.html", delay: .seconds(30), policy: .allow))
                        .decisionTimeout(.milliseconds(300))
                })
            defer { harness.close() }
            try await harness.open("index.html")
            let late = WebTestHarness.url("late.html")
            _ = try await harness.container.evaluate("document.getElementById('late').click()")
            #expect(await TestLoop.wait(timeout: .seconds(5)) { !harness.decisions(for: late).isEmpty })
            #expect(harness.decisions(for: late).first?.handler == NavigationChain.timedOut)
            #expect(harness.decisions(for: late).first?.policy == .cancel)
            #expect(harness.loads(of: late).isEmpty)
        }

        @Test func aPostedMessageReachesItsStrategyAndItsAnswerComesBack() async throws {
            let harness = try WebTestHarness(
                pages: ["index.html": otherPage], configure: { $0.strategy(EchoStrategy(tag: "first")) })
            defer { harness.close() }
            try await harness.open("index.html")

            let answer = try await harness.container.evaluateAsync(
                "return await window.webkit.messageHandlers.echo.postMessage({n: 42, s: 'hi', list: [true, null]});")
            #expect(answer == ["tag": "first", "body": ["n": 42, "s": "hi", "list": [true, nil]]])

            let user = try await harness.container.evaluateAsync("return await window.webkit.messageHandlers.user.postMessage({});")
            #expect(user["login"] == .string(NSUserName()))

            let rejection = try await harness.container.evaluateAsync("""
                try { await window.webkit.messageHandlers.echo.postMessage({fail: true}); return 'resolved'; }
                catch (e) { return 'rejected: ' + e.message; }
                """)
            #expect(rejection == "rejected: asked to fail")
            #expect(harness.messages().map(\.outcome) == [.resolved, .resolved, .rejected])
            #expect(harness.messages().map(\.name) == ["echo", "user", "echo"])
        }

        @Test func aStrategySwappedAtRunTimeAnswersTheNextMessage() async throws {
            let harness = try WebTestHarness(
                pages: ["index.html": otherPage], configure: { $0.strategy(EchoStrategy(tag: "first")) })
            defer { harness.close() }
            try await harness.open("index.html")
            let call = "return await window.webkit.messageHandlers.echo.postMessage(1);"
            #expect(try await harness.container.evaluateAsync(call)["tag"] == "first")
            harness.container.setStrategy(EchoStrategy(tag: "second"))
            #expect(try await harness.container.evaluateAsync(call)["tag"] == "second")
        }

        @Test func thePageStrategySetsTheWindowTitle() async throws {
            let harness = try WebTestHarness(pages: ["index.html": otherPage])
            defer { harness.close() }
            try await harness.open("index.html")
            let answer = try await harness.container.evaluateAsync(
                "return await window.webkit.messageHandlers.page.postMessage({action: 'setTitle', title: 'From the page'});")
            #expect(answer == true)
            #expect(harness.container.windowTitle == "From the page")
            let bad = try await harness.container.evaluateAsync(
                "try { await window.webkit.messageHandlers.page.postMessage('nonsense'); return 'resolved'; } catch (e) { return e.message; }")
            #expect(bad == .string(#"page: the payload must be an object {"action": …}, got a string"#))
            let wrongField = try await harness.container.evaluateAsync(
                "try { await window.webkit.messageHandlers.page.postMessage({action: 'setTitle', title: 7}); return 'resolved'; } catch (e) { return e.message; }")
            #expect(wrongField == .string(#"page: setTitle: field "title" must be a string, got an integer"#))
            #expect(harness.container.windowTitle == "From the page")
        }

        @Test(arguments: [true, false])
        func theDisableZoomScriptIsInThePageOnlyWhenConfigured(disabled: Bool) async throws {
            let harness = try WebTestHarness(pages: ["index.html": otherPage], configure: { $0.disableZoom(disabled) })
            defer { harness.close() }
            try await harness.open("index.html")
            let marker = try await harness.container.evaluate("document.documentElement.getAttribute('data-vitrine-zoom')")
            let viewport = try await harness.container.evaluate(
                "(document.querySelector('meta[name=viewport]') || {}).content || null")
            if disabled {
                #expect(marker == "disabled")
                #expect(viewport.stringValue?.contains("user-scalable=no") == true)
            } else {
                #expect(marker == .null)
                #expect(viewport == .null)
            }
        }

        @Test(arguments: [true, false])
        func theWindowTitleFollowsThePageWhenAsked(follows: Bool) async throws {
            let harness = try WebTestHarness(
                pages: ["index.html": otherPage], configure: { $0.title("Configured title").titleFollowsPage(follows) })
            defer { harness.close() }
            try await harness.open("index.html")
            if follows {
                #expect(await TestLoop.wait(timeout: .seconds(5)) { harness.container.windowTitle == "Other" })
                _ = try await harness.container.evaluate("document.title = 'Changed by script'")
                #expect(await TestLoop.wait(timeout: .seconds(5)) { harness.container.windowTitle == "Changed by script" })
            } else {
                // The web view's own title has changed (its notify::title handler has run),
                // and the window kept the configured one.
                _ = try await harness.container.evaluate("document.title = 'Changed by script'")
                let view = harness.container.stage.panes[0].webView
                #expect(await TestLoop.wait(timeout: .seconds(5)) {
                    webkit_web_view_get_title(view).map { String(cString: $0) } == "Changed by script"
                })
                #expect(harness.container.windowTitle == "Configured title")
            }
        }
    }
}
