#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `clipboard`: `{"action": "readText"}` → the text or null; `{"action": "writeText",
/// "text"}`; `{"action": "writeImage", "png": base64}` → true. Each only while the window
/// is shown and focused: a page in a hidden or background window neither reads what the
/// user copies nor overwrites it (unless `[capabilities] background-clipboard` lets writes
/// through, for an app that fills the clipboard on the user's behalf from the background).
public struct ClipboardStrategy: ScriptMessageStrategy {
    public static let identifier = Capability.clipboard.rawValue
    public static let capability: Capability? = .clipboard
    /// The largest image accepted, in bytes.
    public static let imageLimit = 32 << 20

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

    public func handle(_ message: ScriptMessage, context: ScriptMessageContext) async throws -> JSONValue {
        let body = message.body
        guard let desktop = context.host.desktop else { throw ScriptMessageError.noDesktop(.clipboard) }
        let action = body["action"]?.stringValue ?? ""
        if ["readText", "writeText", "writeImage"].contains(action), let refusal = Self.refusal(
            of: action, windowFocusedAndVisible: desktop.isWindowFocusedAndVisible, writesInBackground: writesInBackground) {
            throw refusal
        }
        switch action {
        case "readText":
            return await desktop.clipboardText().map(JSONValue.string) ?? .null
        case "writeText":
            guard let text = body["text"]?.stringValue else { throw ScriptMessageError("clipboard: writeText needs text, a string") }
            desktop.setClipboardText(text)
            return true
        case "writeImage":
            let png = try Self.bytes(body["png"])
            try desktop.setClipboardImage(png: png)
            return true
        default:
            throw ScriptMessageError.invalidBody(Self.identifier, expected: #"{"action": "readText" | "writeText" | "writeImage", …}"#)
        }
    }

    /// The image's bytes: base64 text (what the SDK sends today) or an array of byte values.
    static func bytes(_ value: JSONValue?) throws(ScriptMessageError) -> [UInt8] {
        let refusal = ScriptMessageError("clipboard: writeImage needs png, the image's bytes (base64 or an array of 0–255)")
        if let text = value?.stringValue {
            guard text.utf8.count <= (imageLimit / 3 + 1) * 4, let data = Data(base64Encoded: text) else { throw refusal }
            return [UInt8](data)
        }
        guard case .array(let items)? = value, items.count <= imageLimit else { throw refusal }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(items.count)
        for item in items {
            guard let number = item.numberValue, let byte = UInt8(exactly: number) else { throw refusal }
            bytes.append(byte)
        }
        return bytes
    }
}
