import Foundation
import Testing
import Vitrine
@testable import VitrineGTK

extension WebKitTests {
    /// Frames' private channels (`NAME#TOKEN`, see `BridgeChannel`): a frame that keeps
    /// calling gets one and its SDK posts there, pages cannot list them, and a frame the
    /// registry forgets loses them.
    @Suite @MainActor
    struct BridgeChannelTests {
        /// The page's own view of WebKit's handlers (the SDK shadows `messageHandlers`),
        /// and a log of every body any handler object is given.
        static let spy = """
            const getter = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(window.webkit), 'messageHandlers');
            const native = getter.get.call(window.webkit);
            const handlerPrototype = Object.getPrototypeOf(native.ping);
            const original = handlerPrototype.postMessage;
            const posted = [];
            handlerPrototype.postMessage = function (body) { posted.push(body); return original.call(this, body); };
            """

        @Test func theSDKPostsPayloadsAsTheyAreOnTheFramesChannel() async throws {
            let harness = try WebTestHarness(pages: ["index.html": BridgeTests.page], configure: { $0.strategy(StrictStrategy()) })
            defer { harness.close() }
            try await harness.open("index.html")
            let pane = try #require(harness.container.panes.first)
            let first = try await harness.container.evaluateAsync("""
                \(Self.spy)
                const out = {calls: 0};
                for (let i = 0; i < \(BridgeChannel.openAfter); i++) { await vitrine.invoke('ping', 'shared'); out.calls++; }
                out.shared = posted.filter((body) => body === 'shared').length;
                handlerPrototype.postMessage = original;
                return out;
                """)
            #expect(first == ["calls": .number(Double(BridgeChannel.openAfter)), "shared": 0],
                    "the first calls carry the frame's token: \(first)")
            #expect(pane.channels.count == 1, "after as many calls the frame has its channel to ping")
            let channels = try #require(pane.channels.values.first)
            #expect(channels.map(\.strategy) == ["ping"])
            let ping = try #require(channels.first)

            let results = try await harness.container.evaluateAsync("""
                \(Self.spy)
                const out = {};
                // WebKit may not have applied the registration yet: until then the SDK uses the shared handler.
                for (let i = 0; i < 100 && posted[0] !== 'abc'; i++) {
                  posted.length = 0;
                  out.reply = await vitrine.invoke('ping', 'abc');
                  if (posted[0] !== 'abc') await new Promise((resolve) => setTimeout(resolve, 20));
                }
                out.stringPosted = posted[0];
                for (let i = 0; i < 100 && typeof posted[0] !== 'object'; i++) {
                  posted.length = 0;
                  out.objectReply = await vitrine.invoke('strict', {count: 1});
                }
                out.objectPosted = posted[0];
                out.nul = await vitrine.invoke('ping', 'nul\\0 and lone \\ud800') === 'nul\\0 and lone \\ud800';
                try { await vitrine.invoke('ping', {toJSON() { throw new Error('no'); }}); out.unserialisable = 'resolved'; }
                catch (e) { out.unserialisable = e.constructor.name; }
                out.direct = await native[\(JSONValue.string(ping.handlerName).jsonText)].postMessage('direct');
                try { await native.ping.postMessage('direct'); out.shared = 'resolved'; } catch (e) { out.shared = e.message; }
                try { await native[\(JSONValue.string(ping.handlerName).jsonText)].postMessage({t: 1}); out.malformed = 'resolved'; }
                catch (e) { out.malformed = e.message; }
                handlerPrototype.postMessage = original;
                // WebKit lists no handler names to the page, so a channel's name stays the frame's secret.
                const names = new Set([...Object.getOwnPropertyNames(native), ...Object.keys(native),
                                       ...Reflect.ownKeys(Object.getPrototypeOf(native)).map(String)]);
                for (const key in native) names.add(key);
                out.listed = [...names].filter((name) => name.includes('#'));
                out.guessed = typeof native['ping#' + '0'.repeat(32)];
                return out;
                """)
            #expect(results["reply"] == "abc")
            #expect(results["stringPosted"] == "abc", "a string goes on the channel as it is: \(results)")
            #expect(results["objectReply"] == 2)
            #expect(results["objectPosted"] == ["j": #"{"count":1}"#], "\(results)")
            #expect(results["nul"] == true, "no C string on the way: NUL and lone surrogates go as they are")
            #expect(results["unserialisable"] == "TypeError", "refused in the page, before anything is posted")
            #expect(results["direct"] == "direct")
            #expect(results["shared"]?.stringValue?.contains("malformed") == true, "the shared handler still wants the token")
            #expect(results["malformed"]?.stringValue?.contains("malformed") == true, "\(results)")
            #expect(results["listed"] == [])
            #expect(results["guessed"] == "undefined")
            #expect(pane.channels.values.first?.map(\.strategy) == ["ping", "strict"])
            let strict = harness.messages().filter { $0.name == "strict" }
            #expect(!strict.isEmpty && strict.allSatisfy { $0.outcome == "resolved" }, "each message answered once: \(strict)")
        }

        @Test func aFrameTheRegistryForgetsLosesItsChannels() async throws {
            // The top page calls until it posts on its channel (its SDK keeps the handler), then
            // opens as many same-origin frames as the registry holds: the top frame, used least
            // recently, is forgotten, its channels closed, and its calls rejected, with the
            // shared handler's reason, until it loads again.
            let frames = FrameRegistry.capacity
            let harness = try WebTestHarness(pages: [
                "index.html": BridgeTests.page,
                "frame.html": "<!doctype html><title>f</title>",
            ])
            defer { harness.close() }
            try await harness.open("index.html")
            let pane = try #require(harness.container.panes.first)
            let before = try await harness.container.evaluateAsync("""
                \(Self.spy)
                for (let i = 0; i < 200 && posted[0] !== 'first'; i++) {
                  posted.length = 0;
                  await vitrine.invoke('ping', 'first');
                  if (posted[0] !== 'first' && i >= \(BridgeChannel.openAfter)) await new Promise((resolve) => setTimeout(resolve, 20));
                }
                handlerPrototype.postMessage = original;
                return posted[0];
                """)
            #expect(before == "first", "the top frame used its channel")
            try #require(pane.channels.count == 1)
            let top = try #require(pane.channels.keys.first)
            _ = try await harness.container.evaluate("""
                for (let i = 0; i < \(frames); i++) {
                  const frame = document.createElement('iframe');
                  frame.src = 'frame.html?' + i;
                  document.body.appendChild(frame);
                }
                'appended';
                """)
            #expect(await TestLoop.wait(timeout: .seconds(60)) { pane.channels[top] == nil }, "\(pane.channels.count) frames with channels")
            #expect(pane.channels.isEmpty, "the frames that never called have none")
            let after = try await harness.container.evaluateAsync("""
                try { await vitrine.invoke('ping', 'again'); return 'resolved'; } catch (e) { return e.message; }
                """)
            #expect(after.stringValue?.contains("not known to the bridge") == true, "\(after)")
        }
    }
}
