import Foundation
import Testing
import Vitrine

/// The bridge's channel and batching policy as core values (docs/bridge-protocol.md), and
/// the constants it shares with the SDK, from protocol.json. No view needed.
@Suite struct ChannelPolicyTests {
    static let a = PrincipalTests.token(1)
    static let b = PrincipalTests.token(2)

    /// Counts `calls` admitted calls; the openings they earned.
    static func count(_ ledger: inout ChannelLedger, _ calls: Int, to strategy: String = "ping", from token: FrameToken = a,
                      answeredAtOnce: Bool = true) -> [ChannelLedger.Opening] {
        (0..<calls).compactMap { _ in ledger.countAdmittedCall(to: strategy, from: token, answeredAtOnce: answeredAtOnce) }
    }

    @Test func aFrameEarnsItsChannelOnTheCallThatReachesTheThreshold() {
        var ledger = ChannelLedger()
        #expect(Self.count(&ledger, ChannelPolicy.openAfter - 1).isEmpty)
        #expect(!ledger.hasChannel(Self.a, to: "ping"))
        #expect(ledger.countAdmittedCall(to: "ping", from: Self.a, answeredAtOnce: true) == .init(batches: true))
        #expect(ledger.hasChannel(Self.a, to: "ping"))
        #expect(Self.count(&ledger, 10 * ChannelPolicy.openAfter).isEmpty, "one channel per frame and strategy, never another")
        #expect(ledger.opened == 1)
    }

    @Test func callsOfOtherFramesOrToOtherStrategiesDoNotAddUp() {
        var ledger = ChannelLedger()
        let half = ChannelPolicy.openAfter / 2
        #expect(Self.count(&ledger, half, from: Self.a).isEmpty)
        #expect(Self.count(&ledger, half, from: Self.b).isEmpty, "a frame cannot lend its calls to another")
        #expect(Self.count(&ledger, half, to: "other", from: Self.a).isEmpty)
        #expect(ledger.opened == 0)
    }

    @Test func onlyAStrategyThatAnsweredEveryEarningCallAtOnceTakesBatches() {
        var ledger = ChannelLedger()
        _ = Self.count(&ledger, ChannelPolicy.openAfter / 2)
        _ = ledger.countAdmittedCall(to: "ping", from: Self.a, answeredAtOnce: false)
        let openings = Self.count(&ledger, ChannelPolicy.openAfter)
        #expect(openings == [.init(batches: false)], "one slow answer among them: no batches")
    }

    @Test func aGoneDocumentLosesItsCountsAndChannels() {
        var ledger = ChannelLedger()
        _ = Self.count(&ledger, ChannelPolicy.openAfter - 1)
        ledger.forget(Self.a)
        #expect(Self.count(&ledger, 1).isEmpty, "counting starts again for a document that came back")
        _ = Self.count(&ledger, ChannelPolicy.openAfter)
        #expect(ledger.hasChannel(Self.a, to: "ping"))
        ledger.forgetAll()
        #expect(!ledger.hasChannel(Self.a, to: "ping"))
        #expect(ledger.opened == 1, "handler names stay in WebKit: the lifetime count does not go down")
    }

    /// Abuse: a page that makes document after document, each calling enough, would grow
    /// WebKit's interned handler names for ever; past the view's budget no channel opens.
    @Test func aFloodOfDocumentsOpensNoMoreThanTheViewsBudget() {
        var ledger = ChannelLedger(limit: 5)
        for number in 1...50 {
            let token = PrincipalTests.token(number)
            _ = Self.count(&ledger, ChannelPolicy.openAfter, from: token)
            ledger.forget(token)
        }
        #expect(ledger.opened == 5)
        #expect(ChannelPolicy.channelsPerView > 0 && ChannelPolicy.channelsPerView <= 1024)
    }

    @Test func aChannelsNameSaysWhoItIsForAndWhatItTakes() {
        let digits = Self.a.hexDigits
        #expect(ChannelPolicy.handlerName(strategy: "ping", token: Self.a, batches: false) == "ping#" + digits)
        #expect(ChannelPolicy.handlerName(strategy: "ping", token: Self.a, batches: true, port: .json) == "ping#\(digits)+.j")
        #expect(ChannelPolicy.handlerName(strategy: "ping", token: Self.a, batches: false, port: .bytes) == "ping#\(digits).x")
        #expect(Set(BridgePort.allCases.map(\.suffix)).count == BridgePort.allCases.count, "ports are told apart by their suffix")
        for port in BridgePort.allCases { #expect(BridgePort(suffix: port.suffix) == port) }
        #expect(BridgePort(suffix: ".y") == nil)
    }

    /// Abuse: an oversized batch or hoisted post is refused as a whole, before any call runs.
    @Test func limitsOnWhatOnePostCarries() {
        #expect(ChannelPolicy.acceptsBatch(of: 0) && ChannelPolicy.acceptsBatch(of: ChannelPolicy.batchLimit))
        #expect(!ChannelPolicy.acceptsBatch(of: ChannelPolicy.batchLimit + 1))
        #expect(!ChannelPolicy.acceptsBatch(of: -1))
        #expect(ChannelPolicy.acceptsHoisted(length: 1) && ChannelPolicy.acceptsHoisted(length: ChannelPolicy.hoistedLimit + 1))
        #expect(!ChannelPolicy.acceptsHoisted(length: 0), "the text itself must be there")
        #expect(!ChannelPolicy.acceptsHoisted(length: ChannelPolicy.hoistedLimit + 2))
    }

    /// The generated constants are protocol.json's, and its text is what the SDK's prelude
    /// carries: one source for both sides.
    @Test func theSharedConstantsComeFromProtocolJSON() throws {
        let url = try #require(packageRoot()).appendingPathComponent("Resources/sdk/protocol.json")
        let text = try String(contentsOf: url, encoding: .utf8)
        #expect(BridgeProtocol.json == (text.hasSuffix("\n") ? String(text.dropLast()) : text))
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(parsed["channelAfter"] as? Int == ChannelPolicy.openAfter)
        #expect(parsed["channelPosts"] as? Int == ChannelPolicy.unansweredPosts)
        #expect(parsed["batchLimit"] as? Int == ChannelPolicy.batchLimit)
        #expect(parsed["hoistedLimit"] as? Int == ChannelPolicy.hoistedLimit)
        #expect(parsed["shortString"] as? Int == ChannelPolicy.shortString)
        #expect(parsed["jsonPort"] as? String == BridgePort.json.suffix)
        #expect(parsed["bytesPort"] as? String == BridgePort.bytes.suffix)
        #expect(parsed["hoistMark"] as? String == String(HoistedJSONText.mark))
        #expect(parsed["keyboardHandler"] as? String == OnScreenKeyboardState.handlerName)
        #expect(parsed["keyboardPressFunction"] as? String == OnScreenKeyboardState.pressFunction)
        #expect(parsed["frameHandler"] as? String == BridgeProtocol.frameHandler)
    }
}
