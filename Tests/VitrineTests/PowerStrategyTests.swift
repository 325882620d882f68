import Foundation
import Testing
import Vitrine

/// The `power` capability's decisions, no display: what a page may ask, who may ask it,
/// and what reaches the desktop's side (`PowerService`).
@MainActor
@Suite
struct PowerStrategyTests {
    static let page = URL(string: "app://app/video.html")!

    /// A desktop that records what it was asked and holds one screen-on per document.
    private final class RecordingPower: PowerService {
        var unavailable = false
        private(set) var calls: [String] = []
        private var holders: Set<FrameToken> = []

        func keepAwake(reason: String, owner: FrameToken) throws(ScriptMessageError) {
            if unavailable { throw ScriptMessageError("power: the desktop cannot keep the screen awake (not available)") }
            calls.append("keepAwake \(reason)")
            holders.insert(owner)
        }

        func allowSleep(owner: FrameToken) -> Bool {
            calls.append("allowSleep")
            return holders.remove(owner) != nil
        }
    }

    private static func principal(mainFrame: Bool) -> Principal {
        Principal(token: FrameToken(String(repeating: "ef", count: 16))!, reportedOrigin: "app://app", url: page.absoluteString,
                  isMainFrame: mainFrame, appID: "org.example.App")
    }

    private func dispatch(_ body: String, power: RecordingPower?, caller: Principal? = principal(mainFrame: true),
                          pageURL: URL = page) async -> Result<JSONValue, ScriptMessageError> {
        await ScriptMessageStrategies([PowerStrategy()]).dispatch(
            ScriptMessage(name: "power", bodyJSON: body, pageURL: pageURL),
            context: ScriptMessageContext(host: DesktopTestHost(power), capabilities: CapabilityGrants().granting([.power], to: Origin(string: "app://app")!),
                                          caller: caller))
    }

    @Test func aGrantedTopDocumentKeepsTheScreenAwakeAndLetsItSleep() async {
        let power = RecordingPower()
        #expect(await dispatch(#"{"action": "keepAwake", "reason": "Playing the video"}"#, power: power) == .success(true))
        #expect(await dispatch(#"{"action": "allowSleep"}"#, power: power) == .success(true))
        #expect(await dispatch(#"{"action": "allowSleep"}"#, power: power) == .success(false), "nothing left to let go")
        #expect(await dispatch(#"{"action": "keepAwake"}"#, power: power) == .success(true))
        #expect(power.calls == ["keepAwake Playing the video", "allowSleep", "allowSleep", "keepAwake \(PowerStrategy.defaultReason)"])
    }

    @Test func aReasonIsAShortLineOfText() async {
        let power = RecordingPower()
        let refused = ScriptMessageError(#"power: keepAwake: field "reason" must be 1 to 100 characters, no control characters"#)
        let long = String(repeating: "é", count: PowerStrategy.reasonLimit + 1)
        #expect(await dispatch(#"{"action": "keepAwake", "reason": "\#(long)"}"#, power: power) == .failure(refused))
        #expect(await dispatch(#"{"action": "keepAwake", "reason": ""}"#, power: power) == .failure(refused))
        #expect(await dispatch(#"{"action": "keepAwake", "reason": "Video\nInhibit 1 forged"}"#, power: power) == .failure(refused))
        #expect(await dispatch(#"{"action": "keepAwake", "reason": 42}"#, power: power)
            == .failure(ScriptMessageError(#"power: keepAwake: field "reason" must be a string, got an integer"#)))
        #expect(await dispatch(#"{"action": "keepAwake", "reason": ["a"]}"#, power: power)
            == .failure(ScriptMessageError(#"power: keepAwake: field "reason" must be a string, got an array"#)))
        #expect(await dispatch(#"{"action": "sleepNow"}"#, power: power)
            == .failure(ScriptMessageError(#"power: field "action" must be one of "keepAwake", "allowSleep", got "sleepNow""#)))
        #expect(power.calls.isEmpty, "no refused request reached the desktop")
        let longest = String(repeating: "é", count: PowerStrategy.reasonLimit)
        #expect(await dispatch(#"{"action": "keepAwake", "reason": "\#(longest)"}"#, power: power) == .success(true))
    }

    @Test func powerIsRefusedToOthers() async {
        let power = RecordingPower()
        let keep = #"{"action": "keepAwake", "reason": "Video"}"#
        #expect(await dispatch(keep, power: power, pageURL: URL(string: "https://x.example/")!) == .failure(ScriptMessageError(
            #"capability "power" is not granted to https://x.example — add it to [capabilities] in the config"#)))
        // A sandboxed frame's document has an opaque origin: never granted.
        guard case .failure(let sandboxed) = await dispatch(keep, power: power, pageURL: URL(string: "about:srcdoc")!) else {
            Issue.record("a sandboxed frame kept the screen awake")
            return
        }
        #expect(sandboxed.message.contains(#"capability "power" is not granted"#), "\(sandboxed)")
        let notTop = ScriptMessageError("power: only the window's top document may keep the screen awake, not a frame inside it")
        #expect(await dispatch(keep, power: power, caller: Self.principal(mainFrame: false)) == .failure(notTop))
        #expect(await dispatch(#"{"action": "allowSleep"}"#, power: power, caller: nil) == .failure(notTop))
        #expect(await dispatch(keep, power: nil) == .failure(ScriptMessageError("power: this container has no desktop to do it")))
        #expect(power.calls.isEmpty)
        power.unavailable = true
        #expect(await dispatch(keep, power: power)
            == .failure(ScriptMessageError("power: the desktop cannot keep the screen awake (not available)")))
    }
}
