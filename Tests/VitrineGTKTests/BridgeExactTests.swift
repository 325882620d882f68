import Foundation
import Testing
import Vitrine
@testable import VitrineGTK
import VitrineTestingGTK

/// Answers through `handle` with the body it parsed (so through JSONValue's reader and
/// writer), and remembers the members it saw in order.
@MainActor
final class KeyOrderLog {
    static let shared = KeyOrderLog()
    var seen: [[String]] = []
}

struct ParsedEchoStrategy: ScriptMessageStrategy {
    static let identifier = "parsedEcho"

    @MainActor
    func handle(_ message: ScriptMessage, context: ScriptMessageContext) async throws -> JSONValue {
        let body = message.body
        if case .object(let members) = body { KeyOrderLog.shared.seen.append(members.keys) }
        return body
    }
}

/// Bytes in, bytes out: reversed, and their count and sum in a JSON answer.
struct ReverseBytesStrategy: ScriptMessageStrategy {
    static let identifier = "reverseBytes"

    @MainActor
    func handle(_ message: ScriptMessage, context: ScriptMessageContext) async throws -> JSONValue {
        guard let bytes = message.body.bytesValue else {
            throw ScriptMessageError.invalidBody(Self.identifier, expected: "a Uint8Array or ArrayBuffer")
        }
        if bytes.count == 3 { return ["count": .number(3), "sum": .number(Double(bytes.reduce(0) { $0 + Int($1) }))] }
        return .bytes(bytes.reversed())
    }
}

extension WebKitTests {
    /// Exact values through the real bridge: object members in order at every depth and
    /// size, strings with every kind of character inside objects, byte buffers as bytes.
    @Suite @MainActor
    struct BridgeExactTests {
        static let page = "<!doctype html><html><head><title>exact</title></head><body>exact</body></html>"

        @Test func objectsKeepTheirMemberOrderBothWaysAtEverySize() async throws {
            KeyOrderLog.shared.seen = []
            let harness = try WebTestHarness(pages: ["index.html": Self.page], configure: { $0.strategy(ParsedEchoStrategy()) })
            defer { harness.close() }
            try await harness.open("index.html")
            // 40 calls per strategy and size: the shared handler, then the frame's channel
            // (after 16), and batches while two posts are unanswered.
            let results = try await harness.container.evaluateAsync("""
                // A lone surrogate comes back as it is from ping (the page's own JSON text);
                // a strategy that parses the body sees U+FFFD instead (a Swift String).
                const make = (size, i, lone) => ({s: 'x'.repeat(size), n: i, zeta: {z: 1, b: [3, {y: 'deep', a: null, m: -0.5}], a: 2},
                                                  'é': 'astral 😀 nul \\0 lone ' + lone, alpha: true});
                const out = {mismatches: [], calls: 0};
                for (const name of ['ping', 'parsedEcho']) {
                  for (const size of [16, 1024, 100 * 1024]) {
                    const sent = Array.from({length: 40}, (_, i) => make(size, i, name === 'ping' ? '\\ud800' : '\\ufffd'));
                    const got = await Promise.all(sent.map((value) => vitrine.invoke(name, value)));
                    got.forEach((value, i) => {
                      out.calls++;
                      if ((JSON.stringify(value) !== JSON.stringify(sent[i]) || value['é'] !== sent[i]['é']) && out.mismatches.length < 3)
                        out.mismatches.push(name + ' ' + size + ' ' + JSON.stringify(value).slice(0, 80));
                    });
                  }
                }
                out.keys = Object.keys(await vitrine.invoke('parsedEcho', {c: 1, b: 2, a: 3}));
                out.lone = (await vitrine.invoke('parsedEcho', {s: 'a\\ud800b'})).s === 'a\\ufffdb';
                return out;
                """)
            #expect(results["mismatches"] == [], "\(results)")
            #expect(results["calls"] == 240)
            #expect(results["keys"] == ["c", "b", "a"])
            #expect(results["lone"] == true, "a parsed lone surrogate is U+FFFD")
            #expect(KeyOrderLog.shared.seen.first == ["s", "n", "zeta", "é", "alpha"], "the strategy sees the page's order")
            #expect(KeyOrderLog.shared.seen.dropLast().last == ["c", "b", "a"])
            let pane = try #require(harness.container.stage.panes.first)
            #expect(pane.channels.values.joined().count == 2, "both strategies reached their channels")
        }

        @Test func byteBuffersTravelAsBytes() async throws {
            let harness = try WebTestHarness(pages: ["index.html": Self.page], configure: { $0.strategy(ReverseBytesStrategy()) })
            defer { harness.close() }
            try await harness.open("index.html")
            let results = try await harness.container.evaluateAsync("""
                // A page that allocates a few MB (here as the IPC benchmark's page does) gets
                // its collector to run; window.webkit must still be the SDK's afterwards.
                let filler = '';
                for (let i = 0; filler.length < 2 * 1024 * 1024; i++) filler += String.fromCharCode(97 + i % 26);
                const posterAfterGC = String(window.webkit.messageHandlers.ping.postMessage);
                const bytes = (size) => Uint8Array.from({length: size}, (_, i) => (i * 131 + (i >> 8)) & 255);
                const same = (a, b) => a instanceof Uint8Array && a.length === b.length && a.every((x, i) => x === b[i]);
                const out = {failures: []};
                // Large first: the shared handler's form ({t, x}) carries them before the channel opens.
                for (const size of [100 * 1024, 0, 1, 16, 1024 * 1024]) {
                  const sent = bytes(size);
                  for (let i = 0; i < 20; i++) {   // the shared handler, then the channel
                    try { if (!same(await vitrine.invoke('ping', sent), sent)) out.failures.push('ping ' + size + ' #' + i); }
                    catch (e) { out.failures.push('ping ' + size + ' #' + i + ': ' + e.message); }
                  }
                  if (!same(await vitrine.invoke('reverseBytes', sent.buffer), sent.slice().reverse()))
                    out.failures.push('reverse ' + size);
                }
                out.counted = await vitrine.invoke('reverseBytes', new Uint8Array([1, 2, 250]));
                try { await vitrine.invoke('reverseBytes', [1, 2, 3]); out.array = 'resolved'; } catch (e) { out.array = e.message; }
                out.nativePoster = posterAfterGC.includes('[native code]');
                return out;
                """)
            #expect(results["nativePoster"] == false, "the WKWebView form still goes through the SDK")
            #expect(results["failures"] == [], "\(results)")
            #expect(results["counted"] == ["count": 3, "sum": 253])
            #expect(results["array"]?.stringValue?.contains("expected a Uint8Array") == true, "a JSON array is not bytes: \(results)")
        }
    }
}
