#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The desktop's notifications (`notification` capability).
@MainActor
public protocol NotificationService: AnyObject {
    /// Shows a desktop notification; a click on it brings the window forward and tells
    /// its pages (`notification:clicked` with `{id}`).
    func notify(_ notification: DesktopNotification) throws
}

/// `notification`: `{"action": "show", "title", "body"?, "id"?}` → `{id}`. Without an id,
/// one is made (`n1`, `n2`, … per process).
public struct NotificationStrategy: TypedScriptMessageStrategy {
    public static let identifier = "notification"
    public static let capability: Capability? = .notification

    public enum Request: ActionRequest {
        /// `title` not empty; an `id` over 256 bytes is replaced by one made.
        case show(title: String, body: String?, id: String?)
        public static let actions = ["show"]
    }

    public struct Shown: Encodable, Sendable {
        public var id: String
    }

    public nonisolated init() {}

    @MainActor private static var made = 0

    public func respond(to request: Request, context: ScriptMessageContext) async throws -> Shown {
        guard case .show(let title, let body, let given) = request, !title.isEmpty else {
            throw ScriptMessageError(#"notification: show: field "title" must not be empty"#)
        }
        let notifier = try context.service(NotificationService.self, for: .notification)
        let id: String
        if let given, !given.isEmpty, given.utf8.count <= 256 {
            id = given
        } else {
            Self.made += 1
            id = "n\(Self.made)"
        }
        try notifier.notify(DesktopNotification(id: id, title: title, body: body))
        return Shown(id: id)
    }
}
