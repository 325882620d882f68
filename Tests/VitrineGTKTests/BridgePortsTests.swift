import Foundation
import Testing
import Vitrine
@testable import VitrineGTK

/// Rejects a body whose `code` member is "no" with a coded error; else answers with the
/// body it parsed (through JSONValue's reader and writer).
struct CodedEchoStrategy: ScriptMessageStrategy {
    static let identifier = "codedEcho"

    enum Refusal: Error, CustomStringConvertible {
        case no
        var description: String { "codedEcho: no" }
    }

    func handle(_ message: ScriptMessage, context: ScriptMessageContext) async throws -> JSONValue {
        if message.body["code"] == "no" { throw Refusal.no }
        return message.body
    }
}

extension WebKitTests {
    /// A channel's JSON and bytes ports (`BridgePort`): what the SDK posts there,
    /// what strategies read from it, what comes back, and what a hostile post gets.
    @Suite @MainActor
    struct BridgePortsTests {
        @Test func jsonAndBytesGoBareOnTheirPortsAndLongStringsBesideTheText() async throws {
            let (harness, pane) = try await BridgeChannelTests.openBridgePage {
                $0.strategy(ParsedEchoStrategy()).strategy(ReverseBytesStrategy()).strategy(CodedEchoStrategy())
            }
            defer { harness.close() }
            let results = try await harness.container.evaluateAsync("""
                \(BridgeChannelTests.untilOnChannel("ping"))
                for (const name of ['parsedEcho', 'reverseBytes', 'codedEcho'])
                  for (let i = 0; i < \(ChannelPolicy.openAfter + 4); i++) await vitrine.invoke(name, name === 'reverseBytes' ? new Uint8Array(4) : {i});
                // Give WebKit time to apply the last channels' registrations: the SDK looks once per call.
                for (let i = 0; i < 50 && posted.filter((body) => typeof body === 'string').length < 3; i++) {
                  posted.length = 0;
                  await vitrine.invoke('parsedEcho', {i});
                  await vitrine.invoke('reverseBytes', new Uint8Array(4));
                  await vitrine.invoke('codedEcho', {i});
                  await new Promise((resolve) => setTimeout(resolve, 20));
                }
                posted.length = 0;
                const out = {failures: []};
                const long = (n, salt) => Array.from({length: n}, (_, i) => 'ab"\\\\\\n\\u2028é😀\\0'[(i + salt) % 12] ?? 'z').join('');
                const lone = '\\ud800 lone';
                const make = (n) => ({s: long(n, 1) + lone, n: 1, deep: {z: [long(n, 2), {q: long(n, 3)}], short: 'x'}, key: {'\\uffff1': '\\uffff1'}});
                for (const name of ['ping', 'parsedEcho'])
                  for (const n of [16, 5000, 100 * 1024]) {
                    const sent = make(n);
                    const got = await vitrine.invoke(name, sent);
                    // A strategy that parses the body sees U+FFFD for a lone surrogate (a Swift String).
                    const expected = name === 'ping' ? sent : JSON.parse(JSON.stringify(sent).replace('\\\\ud800', '\\\\ufffd'));
                    if (JSON.stringify(got) !== JSON.stringify(expected) || JSON.stringify(Object.keys(got)) !== '["s","n","deep","key"]')
                      out.failures.push(name + ' ' + n + ': ' + JSON.stringify(got).slice(0, 60));
                  }
                out.forms = posted.map((body) => Array.isArray(body) ? 'hoisted ' + body.length : typeof body);
                const bytes = Uint8Array.from({length: 70000}, (_, i) => i * 7 & 255);
                const reversed = await vitrine.invoke('reverseBytes', bytes);
                out.reversed = reversed instanceof Uint8Array && reversed.length === bytes.length && reversed.every((b, i) => b === bytes[bytes.length - 1 - i]);
                out.counted = await vitrine.invoke('reverseBytes', new Uint8Array([1, 2, 3]));
                try { await vitrine.invoke('codedEcho', {code: 'no', pad: long(5000, 0)}); out.coded = 'resolved'; }
                catch (e) { out.coded = e.message + ' / ' + e.code; }
                out.lastForms = posted.slice(-4).map((body) => Array.isArray(body) ? 'hoisted ' + body.length : typeof body);
                handlerPrototype.postMessage = original;
                return out;
                """)
            #expect(results["failures"] == [], "\(results)")
            // Per strategy: 16 characters go as JSON text, 5000 and 100 KB beside it (three strings each).
            // Per strategy: 16 characters go as JSON text; 5000 and 100 KB beside it: the three
            // long strings and the value starting with the mark.
            #expect(results["forms"] == ["string", "hoisted 5", "hoisted 5", "string", "hoisted 5", "hoisted 5"], "\(results)")
            #expect(results["reversed"] == true)
            #expect(results["counted"] == ["count": 3, "sum": 6], "a JSON reply on the bytes port")
            #expect(results["coded"] == "codedEcho: codedEcho: no / Refusal.no", "a coded error on the JSON port: \(results)")
            #expect(results["lastForms"] == ["hoisted 5", "string", "string", "hoisted 2"], "\(results)")
            #expect(pane.channels.values.joined().count == 4)
        }

        @Test func callsOnClosedPortsGoToTheSharedHandler() async throws {
            // Native code closes the frame's channel (all three ports) while the page still
            // holds them: JSON, hoisted JSON and bytes posted there are refused by WebKit and
            // sent again on the shared handler, each answered once with its own value.
            let (harness, pane) = try await BridgeChannelTests.openBridgePage()
            defer { harness.close() }
            let opened = try await harness.container.evaluateAsync("""
                \(BridgeChannelTests.untilOnChannel("ping"))
                for (let i = 0; i < 50 && !posted.some((body) => Array.isArray(body)); i++) {
                  await vitrine.invoke('ping', {s: 'h'.repeat(5000)});
                  await vitrine.invoke('ping', new Uint8Array([1]));
                }
                handlerPrototype.postMessage = original;
                return posted.some((body) => Array.isArray(body));
                """)
            #expect(opened == true, "the page used the JSON port")
            let token = try #require(pane.channels.keys.first)
            pane.closeChannels(of: token)
            let results = try await harness.container.evaluateAsync("""
                \(BridgeChannelTests.spy)
                const long = 'é😀\\0"'.repeat(2000);
                const payloads = [{a: 1, z: [2]}, {s: long, n: 1, k: {'\\uffff1': '\\uffff1'}}, Uint8Array.from([5, 6, 7])];
                const answers = await Promise.allSettled(payloads.map((payload) => vitrine.invoke('ping', payload)));
                handlerPrototype.postMessage = original;
                const forms = posted.map((body) => Array.isArray(body) ? 'hoisted' : typeof body === 'string' ? body.slice(32, 33) || 'bare' : 'object');
                return {forms, answers: answers.map((answer, i) => answer.status !== 'fulfilled' ? String(answer.reason)
                  : payloads[i] instanceof Uint8Array ? Array.from(answer.value).join()
                  : JSON.stringify(answer.value) === JSON.stringify(payloads[i]))};
                """)
            #expect(results["answers"] == [true, true, "5,6,7"], "\(results)")
            guard case .array(let forms) = results["forms"] else { Issue.record("\(results)"); return }
            // The two JSON calls are refused on the JSON port and sent again with the frame's
            // token; the bytes, made while two posts were unanswered, waited for a batch and
            // went straight to the shared handler ({t, x}) once the channel was found closed.
            #expect(forms.compactMap(\.stringValue).sorted() == ["bare", "hoisted", "j", "j", "object"], "\(forms)")
            #expect(pane.channels.isEmpty)
        }

        @Test func aHostilePostOnAPortIsRejectedClearly() async throws {
            let (harness, pane) = try await BridgeChannelTests.openBridgePage { $0.strategy(ParsedEchoStrategy()) }
            defer { harness.close() }
            _ = try await harness.container.evaluateAsync(BridgeChannelTests.untilOnChannel("parsedEcho") + "handlerPrototype.postMessage = original; return 1;")
            let channel = try #require(pane.channels.values.first?.first)
            let json = "native[\(JSONValue.string(channel.handlerName(.json)).jsonText)]"
            let bytes = "native[\(JSONValue.string(channel.handlerName(.bytes)).jsonText)]"
            let results = try await harness.container.evaluateAsync("""
                \(BridgeChannelTests.spy)
                handlerPrototype.postMessage = original;
                const out = {};
                const cases = {
                  number: [\(json), 42], object: [\(json), {j: '1'}], notStrings: [\(json), ['{"a":"\\uffff1"}', 5]],
                  empty: [\(json), []], tooMany: [\(json), new Array(\(ChannelPolicy.hoistedLimit + 2)).fill('x')],
                  notJSON: [\(json), '{"a":'], bytesObject: [\(bytes), {x: 'AQI='}], notBase64: [\(bytes), '***'],
                };
                for (const [key, [port, body]] of Object.entries(cases)) {
                  try { out[key] = ['resolved', await port.postMessage(body)]; } catch (e) { out[key] = e.message; }
                }
                out.unknownPlace = await \(json).postMessage(['{"a":"\\uffff7","b":"\\uffff1"}', 'one']);
                return out;
                """)
            for key in ["number", "object", "notStrings", "empty", "tooMany", "bytesObject"] {
                #expect(results[key]?.stringValue?.contains("malformed") == true, "\(key): \(results)")
            }
            // Text that is not JSON (or base64) reaches the strategy as null (no bytes), as on the
            // shared handler: only a page that bypasses the SDK can send it.
            #expect(results["notJSON"] == ["resolved", "null"], "\(results)")
            #expect(results["notBase64"] == ["resolved", ""], "\(results)")
            #expect(results["unknownPlace"] == #"{"a":"\#u{FFFF}7","b":"one"}"#, "an unknown place stays a string: \(results)")
            let logged = harness.messages().filter { $0.name == "parsedEcho" && $0.outcome == .rejected }
            #expect(logged.count == 6, "each rejection logged: \(logged.count)")
        }
    }
}
