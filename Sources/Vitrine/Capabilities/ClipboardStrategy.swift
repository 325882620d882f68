#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The desktop's clipboard (`clipboard` capability).
@MainActor
public protocol ClipboardService: AnyObject {
    /// The clipboard's text, or nil when it holds none.
    func clipboardText() async -> String?
    func setClipboardText(_ text: String)
    /// Puts a PNG image on the clipboard; throws when the bytes are not an image.
    func setClipboardImage(png: [UInt8]) throws
    /// Whether the window is shown and has the keyboard focus: a clipboard read needs it,
    /// so that a page in a hidden or background window cannot read what the user copies.
    var isWindowFocusedAndVisible: Bool { get }
}

/// `clipboard`: `{"action": "readText"}` → the text or null; `{"action": "writeText",
/// "text"}` → true; a PNG image's bytes posted whole (a `Uint8Array`, on the bridge's
/// bytes port) → true: writes it. Each only while the window
/// is shown and focused: a page in a hidden or background window neither reads what the
/// user copies nor overwrites it (unless `[capabilities] background-clipboard` lets writes
/// through, for an app that fills the clipboard on the user's behalf from the background).
public struct ClipboardStrategy: TypedScriptMessageStrategy {
    public static let identifier = "clipboard"
    public static let capability: Capability? = .clipboard
    /// The largest image accepted, in bytes.
    public static let imageLimit = 32 << 20

    public enum Action: ActionRequest {
        case readText
        case writeText(text: String)
        public static let actions = ["readText", "writeText"]
    }

    /// An action, or a PNG image's bytes to write.
    public typealias Request = BytesOr<Action>

    /// Whether a window that is hidden, minimized or not focused may still write.
    public let writesInBackground: Bool

    public nonisolated init(writesInBackground: Bool = false) {
        self.writesInBackground = writesInBackground
    }

    /// Why `action` is refused now, or nil: a read always needs the shown, focused window;
    /// a write too, unless writes in the background are allowed.
    public static func refusal(of action: String, windowFocusedAndVisible: Bool, writesInBackground: Bool) -> ScriptMessageError? {
        guard !windowFocusedAndVisible else { return nil }
        if action == "readText" {
            return ScriptMessageError("clipboard: readText: the window must be shown and focused (a hidden or background window's page cannot read the clipboard)")
        }
        guard !writesInBackground else { return nil }
        return ScriptMessageError("clipboard: \(action): the window must be shown and focused (a hidden or background window's page cannot "
            + "overwrite the clipboard; [capabilities] background-clipboard = true allows it)")
    }

    public func respond(to request: Request, context: ScriptMessageContext) async throws -> JSONValue {
        let clipboard = try context.service(ClipboardService.self, for: .clipboard)
        let action = switch request {
        case .request(.readText): "readText"
        case .request(.writeText): "writeText"
        case .bytes: "writeImage"
        }
        if let refusal = Self.refusal(of: action, windowFocusedAndVisible: clipboard.isWindowFocusedAndVisible,
                                      writesInBackground: writesInBackground) {
            throw refusal
        }
        switch request {
        case .request(.readText):
            return await clipboard.clipboardText().map(JSONValue.string) ?? .null
        case .request(.writeText(let text)):
            clipboard.setClipboardText(text)
        case .bytes(let png):
            guard png.count <= Self.imageLimit else {
                throw ScriptMessageError("clipboard: writeImage: \(png.count) bytes; the limit is \(Self.imageLimit)")
            }
            try clipboard.setClipboardImage(png: png)
        }
        return true
    }
}
