#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The screen kept awake for a page (`power` capability).
@MainActor
public protocol PowerService: AnyObject {
    /// Keeps the screen from blanking for the top document `owner`, saying `reason` to the
    /// desktop, until it lets go, it is no longer shown or the window goes; throws why not
    /// (no screen saver service). A document already holding keeps its first hold.
    func keepAwake(reason: String, owner: FrameToken) throws(ScriptMessageError)
    /// Lets the screen blank again as far as `owner` asked; whether it held. Other holders
    /// (a kiosk's `inhibit-screen-blanking`) keep theirs.
    func allowSleep(owner: FrameToken) -> Bool
}

/// `power`: keeps the screen awake while a page plays a video or shows a presentation.
/// `{"action": "keepAwake", "reason"?}` → true once the desktop holds the screen on (its
/// idle inhibitor, saying `reason`); `{"action": "allowSleep"}` → whether this document held
/// it. Only the window's top document may ask, and its hold ends with it: when it lets go,
/// when another page commits in its view, when the window closes or the program ends.
public struct PowerStrategy: TypedScriptMessageStrategy {
    public static let identifier = "power"
    public static let capability: Capability? = .power

    public enum Request: ActionRequest {
        case keepAwake(reason: String?)
        case allowSleep
        public static let actions = ["keepAwake", "allowSleep"]
    }

    /// The longest reason, in characters: the desktop shows it in a line of its own.
    public static let reasonLimit = 100
    /// The reason the desktop shows when the page gives none.
    public static let defaultReason = "A page keeps the screen on"

    public nonisolated init() {}

    /// `text` as the desktop may show it: 1–100 characters, no control characters.
    public static func reason(_ text: String?) throws(ScriptMessageError) -> String {
        guard let text else { return defaultReason }
        guard !text.isEmpty, text.count <= reasonLimit,
              !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw ScriptMessageError(#"power: keepAwake: field "reason" must be 1 to \#(reasonLimit) characters, no control characters"#)
        }
        return text
    }

    public func respond(to request: Request, context: ScriptMessageContext) async throws -> Bool {
        let reason: String? = if case .keepAwake(let text) = request { try Self.reason(text) } else { nil }
        let power = try context.service(PowerService.self, for: .power)
        guard let caller = context.caller, caller.isMainFrame else {
            throw ScriptMessageError("power: only the window's top document may keep the screen awake, not a frame inside it")
        }
        guard let reason else { return power.allowSleep(owner: caller.token) }
        try power.keepAwake(reason: reason, owner: caller.token)
        return true
    }
}
