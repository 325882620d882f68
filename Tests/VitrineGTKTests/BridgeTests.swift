import Foundation
import Testing
import Vitrine
@testable import VitrineGTK
import VitrineTestingGTK

/// Slow, throwing, and shape-checking strategies for the bridge tests.
struct StrictStrategy: ScriptMessageStrategy {
    static let identifier = "strict"

    func handle(_ message: ScriptMessage, context: ScriptMessageContext) async throws -> JSONValue {
        guard let count = message.body["count"]?.numberValue else {
            throw ScriptMessageError.invalidBody(Self.identifier, expected: #"{"count": number}"#)
        }
        try await Task.sleep(for: .milliseconds(50)) // answered after a suspension
        return .number(count + 1)
    }
}

extension WebKitTests {
    /// The hybrid-app bridge: Promise replies, the SDK, native events, origin checks, tabs.
    @Suite @MainActor
    struct BridgeTests {
        static let page = "<!doctype html><html><head><title>bridge</title></head><body>bridge</body></html>"

        @Test func invokeResolvesWithTheStrategysValueAndRejectsWithItsError() async throws {
            let harness = try WebTestHarness(pages: ["index.html": Self.page], configure: { $0.strategy(StrictStrategy()) })
            defer { harness.close() }
            try await harness.open("index.html")
            let results = try await harness.container.evaluateAsync("""
                const out = {};
                out.sdk = await vitrine.invoke('strict', {count: 41});
                out.wkwebview = await window.webkit.messageHandlers.strict.postMessage({count: 1});
                try { await vitrine.invoke('strict', 'not an object'); out.bad = 'resolved'; } catch (e) { out.bad = e.message; }
                try { await vitrine.invoke('nobody', {}); out.unknown = 'resolved'; } catch (e) { out.unknown = e.message; }
                const cyclic = {}; cyclic.self = cyclic;
                try { await vitrine.invoke('ping', cyclic); out.cyclic = 'resolved'; } catch (e) { out.cyclic = e.constructor.name; }
                try { await vitrine.invoke('ping', 10n); out.bigint = 'resolved'; } catch (e) { out.bigint = e.constructor.name; }
                out.undef = await vitrine.invoke('ping');
                return out;
                """)
            #expect(results["sdk"] == 42)
            #expect(results["wkwebview"] == 2)
            #expect(results["bad"]?.stringValue?.contains(#"expected {"count": number}"#) == true, "\(results)")
            #expect(results["unknown"] == "no strategy for message 'nobody'")
            #expect(results["cyclic"] == "TypeError")
            #expect(results["bigint"] == "TypeError")
            #expect(results["undef"] == .null)
            let strict = harness.messages().filter { $0.name == "strict" }.map(\.outcome)
            #expect(strict == [.resolved, .resolved, .rejected], "each message answered exactly once")
        }

        @Test(arguments: [1, 10])
        func largePayloadsRoundTripIntact(megabytes: Int) async throws {
            let harness = try WebTestHarness(pages: ["index.html": Self.page])
            defer { harness.close() }
            try await harness.open("index.html")
            let result = try await harness.container.evaluateAsync("""
                const size = \(megabytes) * 1024 * 1024;
                let text = '';
                const chunk = 'abcdefghijklmnopqrstuvwxyz0123456789ÀÉÎõü€😀"\\\\\\n<>&'; // multi-byte, quotes, escapes
                while (text.length + chunk.length <= size) text += chunk;
                text += 'x'.repeat(size - text.length);
                const payload = {text, list: [1, 2.5, true, null, {nested: 'ok'}]};
                const reply = await vitrine.invoke('ping', payload);
                // The same JSON value, object members in the same order.
                return {same: JSON.stringify(reply) === JSON.stringify(payload), length: reply.text.length};
                """)
            #expect(result["same"] == true)
            #expect(result["length"] == .number(Double(megabytes * 1024 * 1024)))
        }

        @Test func stringsRoundTripExactlyWhateverTheirContentAndLength() async throws {
            let harness = try WebTestHarness(pages: ["index.html": Self.page])
            defer { harness.close() }
            try await harness.open("index.html")
            // Short strings travel inside the request string, long ones as their own value;
            // NUL and lone surrogates cannot go through a C string and must take the other path.
            let result = try await harness.container.evaluateAsync("""
                const samples = ['', 'a', 'nul\\0inside', 'lone \\ud800 surrogate', 'pair 😀', 'é'.repeat(1024),
                                 'x'.repeat(1024), 'x'.repeat(1025), 'line\\nbreak "quoted" \\\\ back'];
                const failures = [];
                for (const sample of samples) {
                  const viaInvoke = await vitrine.invoke('ping', sample);
                  const viaHandler = await window.webkit.messageHandlers.ping.postMessage(sample);
                  if (viaInvoke !== sample || viaHandler !== sample) failures.push(JSON.stringify(sample).slice(0, 40));
                }
                return {failures, count: samples.length};
                """)
            #expect(result["failures"] == [], "\(result)")
            #expect(result["count"] == 9)
        }

        @Test func requestsWithoutTheFramesTokenNeverReachAStrategy() async throws {
            let harness = try WebTestHarness(pages: ["index.html": Self.page])
            defer { harness.close() }
            try await harness.open("index.html")
            // A page can reach WebKit's own handler objects through the prototype getter the
            // SDK shadows; without its frame's token nothing it posts there is answered.
            let results = try await harness.container.evaluateAsync("""
                const getter = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(window.webkit), 'messageHandlers');
                if (!getter || !getter.get) return {error: 'no native messageHandlers getter'};
                const native = getter.get.call(window.webkit);
                const out = {};
                const attempt = async (key, body) => {
                  try { await native.ping.postMessage(body); out[key] = 'resolved'; } catch (e) { out[key] = String(e && e.message || e); }
                };
                await attempt('forged', '0123456789abcdef0123456789abcdef' + 'shello');
                await attempt('forgedObject', {t: '0123456789abcdef0123456789abcdef', v: 'x'.repeat(2000)});
                await attempt('array', ['0123456789abcdef0123456789abcdef', 'x'.repeat(2000)]);
                await attempt('raw', {hello: 1});
                await attempt('short', 'hello');
                out.registrar = typeof native['vitrine-frame'];
                out.sdk = await vitrine.invoke('ping', 'still works');
                return out;
                """)
            #expect(results["error"] == nil, "\(results)")
            #expect(results["forged"]?.stringValue?.contains("not known to the bridge") == true, "\(results)")
            #expect(results["forgedObject"]?.stringValue?.contains("not known to the bridge") == true, "\(results)")
            #expect(results["array"]?.stringValue?.contains("malformed") == true, "\(results)")
            #expect(results["raw"]?.stringValue?.contains("malformed") == true, "\(results)")
            #expect(results["short"]?.stringValue?.contains("malformed") == true, "\(results)")
            #expect(results["registrar"] == "undefined", "the registrar's handler exists only in the isolated world")
            #expect(results["sdk"] == "still works")
            let rejected = harness.messages().filter { $0.name == "ping" && $0.outcome == .rejected }
            #expect(rejected.count == 5)
        }

        @Test func aNativeEventReachesThePagesListeners() async throws {
            let harness = try WebTestHarness(pages: ["index.html": Self.page])
            defer { harness.close() }
            try await harness.open("index.html")
            _ = try await harness.container.evaluate("""
                window.received = [];
                vitrine.on('cart-changed', (payload) => window.received.push(payload));
                const off = vitrine.on('cart-changed', () => window.received.push('removed listener ran'));
                off();
                """)
            #expect(harness.container.emit("cart-changed", ["items": 3, "note": "line\nbreak 'quoted'"]) == 1)
            harness.container.emit("other-event", "ignored")
            var received = JSONValue.null
            for _ in 0..<100 {
                received = try await harness.container.evaluate("window.received")
                if received != .array([]) { break }
                try await Task.sleep(for: .milliseconds(10))
            }
            #expect(received == [["items": 3, "note": "line\nbreak 'quoted'"]])
            // The registrar's event function lives in its isolated world only.
            #expect(try await harness.container.evaluate("typeof vitrineEvent") == "undefined")
        }

        @Test func onlyAllowedOriginsReachAStrategy() async throws {
            // Top page and its frames on loopback: 127.0.0.1 is allowed, localhost is not.
            let frameScript = """
                <script>
                vitrine.invoke('ping', 'from-frame').then(
                  (v) => parent.postMessage({who: FRAME, result: 'resolved:' + v}, '*'),
                  (e) => parent.postMessage({who: FRAME, result: 'rejected:' + e.message}, '*'));
                </script>
                """
            let server = try LoopbackHTTPServer(pages: [
                "top.html": """
                    <!doctype html><title>top</title><body><script>
                    window.results = {};
                    addEventListener('message', (e) => { window.results[e.data.who] = e.data.result; });
                    </script>
                    <iframe src="http://localhost:PORT/frame.html"></iframe>
                    <iframe srcdoc="<script>const FRAME = 'srcdoc';</script>\(frameScript.replacingOccurrences(of: "\"", with: "&quot;"))"></iframe>
                    <iframe src="data:text/html,\((("<script>const FRAME = 'data';</script>" + frameScript).addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""))"></iframe>
                    </body>
                    """,
                "frame.html": "<!doctype html><script>const FRAME = 'cross-origin';</script>\(frameScript)",
                "outside.html": "<!doctype html><title>outside</title>",
            ])
            defer { server.stop() }
            let top = server.url("top.html")
            try String(contentsOf: server.directory.appendingPathComponent("top.html"), encoding: .utf8)
                .replacingOccurrences(of: "PORT", with: String(server.port))
                .write(to: server.directory.appendingPathComponent("top.html"), atomically: true, encoding: .utf8)

            let fixture = try ContainerFixture(ConfiguratorFactory.make(for: .default).startURL(top))
            let (container, events) = (fixture.container, fixture.log)
            defer { container.close() }
            try await fixture.start(waitingFor: top)

            #expect(try await container.evaluateAsync("return await vitrine.invoke('ping', 'from-top');") == "from-top")
            var results = JSONValue.null
            for _ in 0..<200 {
                results = try await container.evaluate("window.results")
                if case .object(let members) = results, members.count == 3 { break }
                try await Task.sleep(for: .milliseconds(20))
            }
            for frame in ["cross-origin", "srcdoc", "data"] {
                let result = results[frame]?.stringValue ?? "no answer"
                #expect(result.hasPrefix("rejected:") && result.contains("is not allowed to call 'ping'"), "\(frame): \(result)")
            }
            let rejectedOrigins = events.events.compactMap { event -> String? in
                if case let .message("ping", .rejected, _, origin, _) = event { return origin }
                return nil
            }
            #expect(rejectedOrigins.contains("http://localhost:\(server.port)"))
            #expect(rejectedOrigins.contains("null"), "the data: frame's opaque origin")
            #expect(rejectedOrigins.count == 3)
            #expect(container.stage.panes.first?.channels.isEmpty == true, "a rejected call never counts towards a channel")

            // A page the user navigated to outside the app's origins gets no answers either.
            let outside = server.url("outside.html", host: "localhost")
            await container.load(outside)
            try await fixture.nextLoad(of: outside)
            let answer = try await container.evaluateAsync("try { await vitrine.invoke('user', {}); return 'resolved'; } catch (e) { return e.message; }")
            #expect(answer.stringValue?.contains("is not allowed to call 'user'") == true, "\(answer)")
            #expect(container.emit("secret", "not for you") == 0, "native events go only to app origins")
        }

        @Test func strategyOriginsCanBeWidenedPerStrategy() async throws {
            let server = try LoopbackHTTPServer(pages: ["page.html": "<!doctype html><title>p</title>"])
            defer { server.stop() }
            let other = Origin(string: "http://localhost:\(server.port)")!
            let fixture = try ContainerFixture(ConfiguratorFactory.make(for: .default)
                .startURL(server.url("page.html", host: "localhost"))
                .allowOrigin(Origin(string: "https://app.invalid")!)
                .strategyOrigins("ping", [other])
                .strategyOrigins("user", [Origin(string: "https://app.invalid")!]))
            let container = fixture.container
            defer { container.close() }
            try await fixture.start()
            #expect(try await container.evaluateAsync("return await vitrine.invoke('ping', 7);") == 7)
            let user = try await container.evaluateAsync("try { await vitrine.invoke('user'); return 'resolved'; } catch (e) { return 'rejected'; }")
            #expect(user == "rejected", "user is limited to https://app.invalid")
        }

        @Test func theHomeHandlerSwitchesToTheHomeTab() async throws {
            let tabPage = "<!doctype html><title>tab</title><a id='home' href='index.html'>home</a>"
            let harness = try WebTestHarness(pages: ["index.html": tabPage, "second.html": tabPage], configure: {
                $0.tabs([Tab(title: "Home", url: WebTestHarness.url("index.html")),
                         Tab(title: "Second", url: WebTestHarness.url("second.html"))])
                    .prependingHandler(HomePageHandler(homeURL: WebTestHarness.url("index.html")))
            })
            defer { harness.close() }
            harness.container.start()
            #expect(await harness.waitForLoad(WebTestHarness.url("second.html")))
            #expect(await harness.waitForLoad(WebTestHarness.url("index.html")))
            harness.container.selectTab(1)
            #expect(harness.container.selectedTab == 1)
            _ = try await harness.container.evaluate("document.getElementById('home').click()")
            #expect(await TestLoop.wait { harness.container.selectedTab == 0 })
            let home = WebTestHarness.url("index.html")
            #expect(await TestLoop.wait { harness.decisions(for: home).last.map { Decided($0.handler, $0.policy) } == Decided("home", .cancel) })
            #expect(harness.container.stage.url(ofTab: 1) == WebTestHarness.url("second.html"), "the second tab did not navigate")
        }
    }
}
