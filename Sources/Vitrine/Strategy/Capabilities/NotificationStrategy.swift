#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

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
