#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `window`: the asking page's window (see `WindowCommand`).
public struct WindowStrategy: ScriptMessageStrategy {
    public static let identifier = Capability.window.rawValue
    public static let capability: Capability? = .window

    public nonisolated init() {}

    public func handle(_ message: ScriptMessage, context: ScriptMessageContext) async throws -> JSONValue {
        let command = try WindowCommand(body: message.body, pageURL: message.pageURL)
        guard let desktop = context.host.desktop else { throw ScriptMessageError.noDesktop(.window) }
        if desktop.isKioskWindow, let refusal = command.kioskRefusal { throw refusal }
        return try desktop.perform(command)
    }
}

/// `clipboard`: `{"action": "readText"}` → the text or null, only while the window is shown
/// and focused; `{"action": "writeText",
/// "text"}`; `{"action": "writeImage", "png": base64}` → true.
public struct ClipboardStrategy: ScriptMessageStrategy {
    public static let identifier = Capability.clipboard.rawValue
    public static let capability: Capability? = .clipboard
    /// The largest image accepted, in bytes.
    public static let imageLimit = 32 << 20

    public nonisolated init() {}

    public func handle(_ message: ScriptMessage, context: ScriptMessageContext) async throws -> JSONValue {
        let body = message.body
        guard let desktop = context.host.desktop else { throw ScriptMessageError.noDesktop(.clipboard) }
        switch body["action"]?.stringValue {
        case "readText":
            guard desktop.isWindowFocusedAndVisible else {
                throw ScriptMessageError("clipboard: readText: the window must be shown and focused (a hidden or background window's page cannot read the clipboard)")
            }
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

/// `notification`: `{"action": "show", "title", "body"?, "id"?}` → `{id}`. Without an id,
/// one is made (`n1`, `n2`, … per process).
public struct NotificationStrategy: ScriptMessageStrategy {
    public static let identifier = Capability.notification.rawValue
    public static let capability: Capability? = .notification

    public nonisolated init() {}

    @MainActor private static var made = 0

    public func handle(_ message: ScriptMessage, context: ScriptMessageContext) async throws -> JSONValue {
        let body = message.body
        guard body["action"]?.stringValue == "show", let title = body["title"]?.stringValue, !title.isEmpty else {
            throw ScriptMessageError.invalidBody(Self.identifier, expected: #"{"action": "show", "title": non-empty string, "body"?: string, "id"?: string}"#)
        }
        guard let desktop = context.host.desktop else { throw ScriptMessageError.noDesktop(.notification) }
        let id: String
        if let given = body["id"]?.stringValue, !given.isEmpty, given.utf8.count <= 256 {
            id = given
        } else {
            Self.made += 1
            id = "n\(Self.made)"
        }
        try desktop.notify(DesktopNotification(id: id, title: title, body: body["body"]?.stringValue))
        return ["id": .string(id)]
    }
}

/// The capabilities' strategies a container registers besides the configured ones (a
/// configured strategy of the same name wins). Each refuses pages not granted its capability.
public enum BuiltInCapabilities {
    @MainActor
    public static func strategies(for configuration: Configuration) -> [any ScriptMessageStrategy] {
        [WindowStrategy(), ClipboardStrategy(), StorageStrategy(store: KeyValueStore.shared(in: configuration.appDataDirectory)),
         NotificationStrategy(), DialogStrategy(), ShellStrategy()]
    }
}

extension ScriptMessageStrategies {
    /// A copy with each of `strategies` added unless one with its identifier is there.
    public func addingMissing(_ strategies: [any ScriptMessageStrategy]) -> ScriptMessageStrategies {
        strategies.reduce(self) { $0.strategy(for: $1.identifier) == nil ? $0.adding($1) : $0 }
    }
}
