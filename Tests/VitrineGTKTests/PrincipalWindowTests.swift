import Foundation
import Testing
import Vitrine
@testable import VitrineGTK
import VitrineTestingGTK

extension WebKitTests {
    /// Who is asking, on real pages: a frame's true origin (sandboxed frames are opaque
    /// whatever their URL), and tokens that die with their document.
    @Suite @MainActor
    struct PrincipalWindowTests {
        /// Reads this frame's own token the way a hostile script would: from the SDK's
        /// first post (the handlers' prototype is the page's to patch).
        static let stealToken = """
            const getter = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(window.webkit), 'messageHandlers');
            const nativeHandlers = getter.get.call(window.webkit); // WebKit's own, not the SDK's proxy
            const handlerPrototype = Object.getPrototypeOf(nativeHandlers.ping);
            const original = handlerPrototype.postMessage;
            let stolen = null;
            handlerPrototype.postMessage = function (body) {
              if (typeof body === 'string' && stolen === null) stolen = body.slice(0, 32);
              return original.call(this, body);
            };
            await vitrine.invoke('ping', 'innocent');
            handlerPrototype.postMessage = original;
            """

        /// A loopback server for the app (127.0.0.1) and a foreign origin (localhost).
        static func server(_ pages: [String: String]) throws -> LoopbackHTTPServer {
            let server = try LoopbackHTTPServer(pages: pages)
            for (path, content) in pages where content.contains("PORT") {
                try content.replacingOccurrences(of: "PORT", with: String(server.port))
                    .write(to: server.directory.appendingPathComponent(path), atomically: true, encoding: .utf8)
            }
            return server
        }

        @Test func sandboxedFramesOfTheAppsOwnURLAreRefusedAsOpaqueOrigins() async throws {
            // Three frames of the app's own URL: a plain one (granted), one with the sandbox
            // attribute and one served with CSP sandbox (opaque origins: refused).
            let frameScript = """
                <!doctype html><script>
                vitrine.invoke('ping', 'from-frame').then(
                  (v) => parent.postMessage({who: location.search || location.pathname, result: 'resolved:' + v}, '*'),
                  (e) => parent.postMessage({who: location.search || location.pathname, result: 'rejected:' + e.message}, '*'));
                </script>
                """
            let server = try Self.server([
                "top.html": """
                    <!doctype html><title>top</title><body><script>
                    window.results = {};
                    addEventListener('message', (e) => { window.results[e.data.who] = e.data.result; });
                    </script>
                    <iframe src="frame.html?plain"></iframe>
                    <iframe sandbox="allow-scripts" src="frame.html?attribute"></iframe>
                    <iframe src="/csp-sandbox/frame.html?csp"></iframe>
                    </body>
                    """,
                "frame.html": frameScript,
            ])
            defer { server.stop() }
            let top = server.url("top.html")
            let fixture = try ContainerFixture(ConfiguratorFactory.make(for: .default).startURL(top))
            defer { fixture.close() }
            try await fixture.start(waitingFor: top)
            let results = try await fixture.container.evaluateAsync("""
                await new Promise((resolve) => {
                  const check = () => { if (Object.keys(results).length === 3) resolve(); };
                  addEventListener('message', () => setTimeout(check, 0));
                  check();
                });
                return results;
                """)
            #expect(results["?plain"] == "resolved:from-frame", "\(results)")
            for frame in ["?attribute", "?csp"] {
                let result = results[frame]?.stringValue ?? "no answer"
                #expect(result.hasPrefix("rejected:") && result.contains("opaque origin"), "\(frame): \(result)")
            }
            #expect(try await fixture.container.evaluateAsync("return await vitrine.invoke('ping', 'top');") == "top")
        }

        @Test func aTokenCarriedToAnotherPageDiesWithItsDocument() async throws {
            let server = try Self.server([
                "app.html": "<!doctype html><title>app</title>",
                "foreign.html": "<!doctype html><title>foreign</title>",
            ])
            defer { server.stop() }
            let app = server.url("app.html")
            let foreign = server.url("foreign.html", host: "localhost")
            let fixture = try ContainerFixture(ConfiguratorFactory.make(for: .default).startURL(app)
                .strategyOrigins("ping", [Origin(string: "http://127.0.0.1:\(server.port)")!]))
            defer { fixture.close() }
            try await fixture.start(waitingFor: app)
            let token = try #require(try await fixture.container.evaluateAsync(Self.stealToken + "return stolen;").stringValue)
            #expect(token.count == FrameToken.hexLength)
            // The script takes the token to a foreign page and posts with it from there.
            _ = try await fixture.container.evaluate("location.href = '\(foreign.absoluteString)'; 'leaving'")
            try await fixture.nextLoad(of: foreign)
            let answer = try await fixture.container.evaluateAsync("""
                const getter = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(window.webkit), 'messageHandlers');
                try { return 'resolved:' + await getter.get.call(window.webkit).ping.postMessage('\(token)' + 'sstolen'); }
                catch (e) { return 'rejected:' + e.message; }
                """)
            #expect(answer.stringValue?.contains("not known to the bridge") == true, "\(answer)")
            #expect(fixture.container.stage.panes.first?.channels.isEmpty == true)
        }

        @Test func aFrameThatNavigatesAwayTakesItsTokenWithIt() async throws {
            // An app frame reads its token, hands it to its parent, and goes to a foreign
            // page, which gets the token back and posts with it.
            let server = try Self.server([
                "top.html": """
                    <!doctype html><title>top</title><body><script>
                    window.answer = new Promise((resolve) => addEventListener('message', (e) => {
                      if (e.data.token) {
                        window.stolen = e.data.token;
                        const frame = document.querySelector('iframe');
                        frame.onload = () => frame.contentWindow.postMessage({token: e.data.token}, '*');
                      } else if (e.data.result) resolve(e.data.result);
                    }));
                    </script>
                    <iframe src="frame.html"></iframe>
                    </body>
                    """,
                "frame.html": """
                    <!doctype html><script>
                    (async () => {
                    \(Self.stealToken)
                    parent.postMessage({token: stolen}, '*');
                    location.href = 'http://localhost:PORT/foreign.html';
                    })();
                    </script>
                    """,
                "foreign.html": """
                    <!doctype html><script>
                    const getter = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(window.webkit), 'messageHandlers');
                    addEventListener('message', async (e) => {
                      let result;
                      try { result = 'resolved:' + await getter.get.call(window.webkit).ping.postMessage(e.data.token + 'sstolen'); }
                      catch (error) { result = 'rejected:' + error.message; }
                      parent.postMessage({result}, '*');
                    });
                    </script>
                    """,
            ])
            defer { server.stop() }
            let top = server.url("top.html")
            let fixture = try ContainerFixture(ConfiguratorFactory.make(for: .default).startURL(top)
                .strategyOrigins("ping", [Origin(string: "http://127.0.0.1:\(server.port)")!]))
            defer { fixture.close() }
            try await fixture.start(waitingFor: top)
            let answer = try await fixture.container.evaluateAsync("return await window.answer;")
            #expect(answer.stringValue?.contains("not known to the bridge") == true, "\(answer)")
            #expect(try await fixture.container.evaluate("typeof window.stolen") == "string", "the frame did hand its token over")
            #expect(try await fixture.container.evaluateAsync("return await vitrine.invoke('ping', 'top');") == "top",
                    "the top frame's own token lives on")
        }

        @Test func aPageBackFromTheBackForwardCacheCallsAgain() async throws {
            let harness = try WebTestHarness(pages: [
                "index.html": "<!doctype html><title>first</title><a id='next' href='second.html'>next</a>",
                "second.html": "<!doctype html><title>second</title>",
            ])
            defer { harness.close() }
            try await harness.open("index.html")
            let first = WebTestHarness.url("index.html"), second = WebTestHarness.url("second.html")
            #expect(try await harness.container.evaluateAsync("window.marker = 'kept'; return await vitrine.invoke('ping', 1);") == 1)
            _ = try await harness.container.evaluate("location.href = 'second.html'; 'leaving'")
            try await harness.fixture.nextLoad(of: second)
            _ = try await harness.container.evaluate("history.back(); 'back'")
            try await harness.fixture.nextLoad(of: first)
            #expect(try await harness.container.evaluate("window.marker ?? 'reloaded'") == "kept", "restored from the cache")
            #expect(try await harness.container.evaluateAsync("return await vitrine.invoke('ping', 2);") == 2)
        }
    }
}
