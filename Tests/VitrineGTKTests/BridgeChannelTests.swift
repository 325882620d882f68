import Foundation
import Testing
import Vitrine
@testable import VitrineGTK
import VitrineTestingGTK

/// Answers at once (so its channels take batches): with the payload, or, for a payload
/// starting with "no", a rejection.
struct PickyStrategy: ScriptMessageStrategy {
    static let identifier = "picky"

    func handle(_ message: ScriptMessage, context: ScriptMessageContext) async throws -> JSONValue {
        message.body
    }

    func immediateReply(to message: borrowing ScriptMessageView, context: ScriptMessageContext) throws -> ScriptReply? {
        if message.body.stringValue?.hasPrefix("no") == true { throw ScriptMessageError("picky: not " + (message.body.stringValue ?? "")) }
        return .messageBody
    }
}

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

        /// A harness showing the bridge page (and `pages`), for the caller to close, and its pane.
        static func openBridgePage(
            pages: [String: String] = [:], _ configure: (Configurator) -> Configurator = { $0 }
        ) async throws -> (WebTestHarness, WebPane) {
            let harness = try WebTestHarness(pages: pages.merging(["index.html": BridgeTests.page]) { $1 }, configure: configure)
            do {
                try await harness.open("index.html")
                return (harness, try #require(harness.container.stage.panes.first))
            } catch {
                harness.close()
                throw error
            }
        }

        @Test func theSDKPostsPayloadsAsTheyAreOnTheFramesChannel() async throws {
            let (harness, pane) = try await Self.openBridgePage { $0.strategy(StrictStrategy()) }
            defer { harness.close() }
            let first = try await harness.container.evaluateAsync("""
                \(Self.spy)
                const out = {calls: 0};
                for (let i = 0; i < \(ChannelPolicy.openAfter); i++) { await vitrine.invoke('ping', 'shared'); out.calls++; }
                out.shared = posted.filter((body) => body === 'shared').length;
                handlerPrototype.postMessage = original;
                return out;
                """)
            #expect(first == ["calls": .number(Double(ChannelPolicy.openAfter)), "shared": 0],
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
                // An object: its JSON text, bare, on the channel's JSON port.
                for (let i = 0; i < 100 && posted[0] !== '{"count":1}'; i++) {
                  posted.length = 0;
                  out.objectReply = await vitrine.invoke('strict', {count: 1});
                }
                out.objectPosted = posted[0];
                out.nul = await vitrine.invoke('ping', 'nul\\0 and lone \\ud800') === 'nul\\0 and lone \\ud800';
                try { await vitrine.invoke('ping', {toJSON() { throw new Error('no'); }}); out.unserialisable = 'resolved'; }
                catch (e) { out.unserialisable = e.constructor.name; }
                out.direct = await native[\(JSONValue.string(ping.handlerName(.text)).jsonText)].postMessage('direct');
                try { await native.ping.postMessage('direct'); out.shared = 'resolved'; } catch (e) { out.shared = e.message; }
                try { await native[\(JSONValue.string(ping.handlerName(.text)).jsonText)].postMessage({t: 1}); out.malformed = 'resolved'; }
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
            #expect(results["objectPosted"] == #"{"count":1}"#, "\(results)")
            #expect(results["nul"] == true, "no C string on the way: NUL and lone surrogates go as they are")
            #expect(results["unserialisable"] == "TypeError", "refused in the page, before anything is posted")
            #expect(results["direct"] == "direct")
            #expect(results["shared"]?.stringValue?.contains("malformed") == true, "the shared handler still wants the token")
            #expect(results["malformed"]?.stringValue?.contains("malformed") == true, "\(results)")
            #expect(results["listed"] == [])
            #expect(results["guessed"] == "undefined")
            #expect(pane.channels.values.first?.map(\.strategy) == ["ping", "strict"])
            let strict = harness.messages().filter { $0.name == "strict" }
            #expect(!strict.isEmpty && strict.allSatisfy { $0.outcome == .resolved }, "each message answered once: \(strict)")
        }

        /// A document registers with the bridge when it first uses it, not at its start: a
        /// loaded page that has not called or listened has sent no message (the program then
        /// needs no JavaScript engine of its own); its first listener registers its true
        /// origin, and its bridge answers that it is there all along.
        @Test func aDocumentRegistersWhenItFirstUsesTheBridge() async throws {
            let (harness, pane) = try await Self.openBridgePage()
            defer { harness.close() }
            #expect(pane.messages.frames.count == 0 && pane.messages.frames.mainToken == nil, "registered before any use")
            #expect(await harness.container.bridgeIsPresent())
            _ = try await harness.container.evaluate("vitrine.on('tick', () => {}), 1")
            #expect(await TestLoop.wait { pane.messages.frames.mainToken != nil })
            var frames = pane.messages.frames
            let principal = try #require(frames.mainToken.flatMap { frames.principal(for: $0) })
            #expect(principal.origin == Origin(string: "app://\(WebTestHarness.host)") && principal.isMainFrame)
            #expect(frames.count == 1)
        }

        @Test func framesPastTheRegistrysCapacityNeverPushTheTopFrameOut() async throws {
            // The top page calls until it posts on its channel, then opens more same-origin
            // frames than a pool holds (each registers its own document as it starts
            // listening): the top frame, used least recently, keeps its place, its channel
            // and its calls.
            let frames = FrameRegistry.capacity + 44
            let (harness, pane) = try await Self.openBridgePage(pages: [
                "frame.html": "<!doctype html><title>f</title><script>vitrine.on('tick', () => {})</script>"])
            defer { harness.close() }
            let before = try await harness.container.evaluateAsync(Self.untilOnChannel("ping") + """
                handlerPrototype.postMessage = original;
                return 'on its channel';
                """)
            #expect(before == "on its channel", "the top frame used its channel")
            try #require(pane.channels.count == 1)
            let top = try #require(pane.channels.keys.first)
            let loaded = try await harness.container.evaluateAsync("""
                const loads = [];
                for (let i = 0; i < \(frames); i++) {
                  const frame = document.createElement('iframe');
                  frame.src = 'frame.html?' + i;
                  loads.push(new Promise((resolve) => frame.onload = resolve));
                  document.body.appendChild(frame);
                }
                await Promise.all(loads);
                const answers = await Promise.all(Array.from(document.querySelectorAll('iframe'),
                  (frame) => frame.contentWindow.vitrine.invoke('ping', 'f').then(() => 1, () => 0)));
                return answers.reduce((a, b) => a + b, 0);
                """)
            // The subframes' pool keeps the 256 that came last; the first ones were forgotten.
            #expect(loaded == .number(Double(FrameRegistry.capacity)), "\(loaded)")
            #expect(pane.channels[top] != nil, "the top frame keeps its channel")
            let after = try await harness.container.evaluateAsync("""
                try { return await vitrine.invoke('ping', 'again'); } catch (e) { return e.message; }
                """)
            #expect(after == "again", "\(after)")
        }

        /// Calls the page until it posts on its channel to `name` (the SDK keeps WebKit's
        /// handler), with the spy left in place; `warmCalls` counts those calls.
        static func untilOnChannel(_ name: String) -> String {
            """
            \(spy)
            let warmCalls = 0;
            for (let i = 0; i < 200 && posted[0] !== 'warm'; i++) {
              posted.length = 0;
              await vitrine.invoke('\(name)', 'warm');
              warmCalls++;
              if (posted[0] !== 'warm' && i >= \(ChannelPolicy.openAfter)) await new Promise((resolve) => setTimeout(resolve, 20));
            }
            if (posted[0] !== 'warm') throw new Error('no channel to \(name)');
            posted.length = 0;
            """
        }

        @Test func callsMadeWhileTheChannelIsBusyGoTogetherAndEachGetsItsOwnAnswer() async throws {
            let (harness, pane) = try await Self.openBridgePage { $0.strategy(PickyStrategy()) }
            defer { harness.close() }
            let results = try await harness.container.evaluateAsync("""
                \(Self.untilOnChannel("picky"))
                const payloads = [];
                for (let i = 0; i < 300; i++) {
                  payloads.push(i % 50 === 7 ? {n: i, list: [i, 'x']}
                    : i % 50 === 9 ? 'no ' + i
                    : i % 100 === 11 ? 'L'.repeat(\(ChannelPolicy.shortString + 1)) + i
                    : i % 100 === 13 ? 'nul\\0' + i + '\\ud800'
                    : 'call ' + i);
                }
                // WebKit carries an object in a reply as a dictionary: its keys come back in any order.
                const canonical = (v) => Array.isArray(v) ? '[' + v.map(canonical).join(',') + ']'
                  : v && typeof v === 'object' ? '{' + Object.keys(v).sort().map((k) => JSON.stringify(k) + ':' + canonical(v[k])).join(',') + '}'
                  : JSON.stringify(v);
                const settled = await Promise.allSettled(payloads.map((payload) => vitrine.invoke('picky', payload)));
                const out = {wrong: [], rejected: [], batches: 0, batched: 0, largeInBatch: 0, unbatched: 0, warmCalls};
                settled.forEach((result, i) => {
                  const payload = payloads[i];
                  if (typeof payload === 'string' && payload.startsWith('no')) {
                    if (result.status !== 'rejected') out.wrong.push(i);
                    else out.rejected.push(result.reason.constructor.name + ': ' + result.reason.message);
                  } else if (result.status !== 'fulfilled' || canonical(result.value) !== canonical(payload)) {
                    out.wrong.push(i + ' ' + result.status + ' ' + JSON.stringify(result.value ?? String(result.reason)));
                  }
                });
                for (const body of posted) {
                  if (body && Array.isArray(body.b)) {
                    out.batches++;
                    out.batched += body.b.length;
                    out.largeInBatch += body.b.filter((call) => typeof call === 'string' && call.length > \(ChannelPolicy.shortString)).length;
                  } else out.unbatched++;
                }
                try { await native.picky.postMessage('x'); } catch (e) { out.single = e.constructor.name; }
                handlerPrototype.postMessage = original;
                return out;
                """)
            #expect(results["wrong"] == [], "every call gets its own answer: \(results)")
            guard case .array(let rejected) = results["rejected"] else { Issue.record("\(results)"); return }
            #expect(rejected.count == 6)
            #expect(rejected.first == .string((results["single"]?.stringValue ?? "?") + ": picky: not no 9"),
                    "a rejection in a batch looks like any other: \(rejected)")
            #expect((results["batches"]?.numberValue ?? 0) >= 1, "calls made while the channel was busy went together: \(results)")
            #expect(results["batched"].flatMap(\.numberValue).map { $0 + (results["unbatched"]?.numberValue ?? 0) } == 300,
                    "each call posted once: \(results)")
            #expect(results["largeInBatch"] == 0, "long payloads go on their own")
            #expect(pane.channels.values.first?.first?.batches == true)
            let picky = harness.messages().filter { $0.name == "picky" }
            #expect(picky.filter { $0.outcome == .resolved }.count == 300 - 6 + Int(results["warmCalls"]?.numberValue ?? 0),
                    "each call logged once: \(picky.count)")
            #expect(picky.filter { $0.outcome == .rejected }.count == 6 + 1)
        }

        @Test func aBatchIsCheckedCallByCallAndAnsweredOnce() async throws {
            let (harness, pane) = try await Self.openBridgePage()
            defer { harness.close() }
            _ = try await harness.container.evaluateAsync(Self.untilOnChannel("ping") + "return 1;")
            let ping = try #require(pane.channels.values.first?.first)
            #expect(ping.batches, "ping answers at once")
            let port = "native[\(JSONValue.string(ping.handlerName(.text)).jsonText)]"
            let results = try await harness.container.evaluateAsync("""
                \(Self.spy)
                handlerPrototype.postMessage = original;
                const out = {};
                out.mixed = await \(port).postMessage({b: ['ok', 5, {j: '[1,{"a":2}]'}, {b: ['nested']}]});
                out.empty = await \(port).postMessage({b: []});
                for (const [key, body] of [['notArray', {b: 'x'}], ['tooMany', {b: new Array(\(ChannelPolicy.batchLimit + 1)).fill('x')}]]) {
                  try { await \(port).postMessage(body); out[key] = 'resolved'; } catch (e) { out[key] = e.message; }
                }
                return out;
                """)
            let mixed = try #require(results["mixed"], "\(results)")
            #expect(mixed["v"] == ["ok", .null, ["j": #"[1,{"a":2}]"#], .null],
                    "each answer in the form the SDK decodes; undefined where rejected (JSON null here): \(mixed)")
            guard case .object(let errors) = mixed["e"] else { Issue.record("\(mixed)"); return }
            #expect(errors.keys.sorted() == ["1", "3"])
            #expect(errors["1"]?.stringValue?.contains("malformed") == true)
            #expect(results["empty"] == [])
            #expect(results["notArray"]?.stringValue?.contains("malformed") == true, "\(results)")
            #expect(results["tooMany"]?.stringValue?.contains("malformed") == true, "\(results)")
        }

        @Test func aStrategyThatWaitsGetsNoBatches() async throws {
            let (harness, pane) = try await Self.openBridgePage { $0.strategy(StrictStrategy()) }
            defer { harness.close() }
            let results = try await harness.container.evaluateAsync("""
                \(Self.spy)
                for (let i = 0; i < 100 && !posted.some((body) => typeof body === 'string'); i++) {
                  posted.length = 0;
                  await vitrine.invoke('strict', {count: i});
                }
                posted.length = 0;
                const answers = await Promise.all([...Array(20).keys()].map((count) => vitrine.invoke('strict', {count})));
                handlerPrototype.postMessage = original;
                return {answers, posts: posted.length, batches: posted.filter((body) => body && body.b).length};
                """)
            #expect(results["answers"] == .array((1...20).map { .number(Double($0)) }))
            #expect(results["posts"] == 20 && results["batches"] == 0, "one post per call: \(results)")
            #expect(pane.channels.values.first?.first?.batches == false)
            #expect(pane.channels.values.first?.first?.handlerName(.text).hasSuffix("+") == false)
        }

        @Test func callsWaitingOnAClosedChannelGoToTheSharedHandler() async throws {
            // Native code closes the frame's channel while the page does not know it: the
            // first posts there are refused, and they and every call waiting for a batch are
            // sent again on the shared handler, each answered once.
            let (harness, pane) = try await Self.openBridgePage()
            defer { harness.close() }
            _ = try await harness.container.evaluateAsync(Self.untilOnChannel("ping") + "handlerPrototype.postMessage = original; return 1;")
            let token = try #require(pane.channels.keys.first)
            pane.closeChannels(of: token)
            let results = try await harness.container.evaluateAsync("""
                const payloads = [...Array(60).keys()].map((i) => 'late ' + i);
                const answers = await Promise.allSettled(payloads.map((payload) => vitrine.invoke('ping', payload)));
                return answers.filter((answer, i) => answer.status !== 'fulfilled' || answer.value !== payloads[i]).length;
                """)
            #expect(results == 0, "every waiting call answered with its own value")
            let late = harness.messages().filter { $0.name == "ping" && $0.outcome == .resolved }
            #expect(late.count >= 60 + ChannelPolicy.openAfter, "\(late.count)")
        }
    }
}
