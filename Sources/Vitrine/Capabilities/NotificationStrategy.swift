#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The desktop's notifications (`notification` capability).
@MainActor
public protocol NotificationService: AnyObject {
    /// Shows a desktop notification; a click on it brings the window forward and tells
    /// its pages (`notification:clicked` with `{id}`), a button tells the document that
    /// showed it (`notification:action` with `{id, action}`). Throws where the desktop has
    /// no notification server.
    func notify(_ notification: DesktopNotification) async throws
}

/// `notification`: `{"action": "show", "title", "body"?, "id"?, "actions"?: [{id, label}]}`
/// → `{id}`. Without an id, one is made (`n1`, `n2`, … per process). Buttons (`actions`, at
/// most three) belong to the top document that showed them: a frame inside it may show a
/// notification, not one with buttons.
public struct NotificationStrategy: TypedScriptMessageStrategy {
    public static let identifier = "notification"
    public static let capability: Capability? = .notification

    public enum Request: ActionRequest {
        /// `title` not empty; an `id` over 256 bytes is replaced by one made.
        case show(title: String, body: String?, id: String?, actions: [NotificationAction]?)
        public static let actions = ["show"]
    }

    public struct Shown: Encodable, Sendable {
        public var id: String
    }

    public nonisolated init() {}

    @MainActor private static var made = 0

    public func respond(to request: Request, context: ScriptMessageContext) async throws -> Shown {
        guard case .show(let title, let body, let given, let asked) = request, !title.isEmpty else {
            throw ScriptMessageError(#"notification: show: field "title" must not be empty"#)
        }
        let actions = try NotificationAction.checked(asked ?? [])
        var owner: FrameToken?
        if !actions.isEmpty {
            guard let caller = context.caller, caller.isMainFrame else {
                throw ScriptMessageError("notification: show: only the window's top document may show a notification with actions, not a frame inside it")
            }
            owner = caller.token
        }
        let notifier = try context.service(NotificationService.self, for: .notification)
        let id: String
        if let given, !given.isEmpty, given.utf8.count <= 256 {
            id = given
        } else {
            Self.made += 1
            id = "n\(Self.made)"
        }
        try await notifier.notify(DesktopNotification(id: id, title: title, body: body, actions: actions, owner: owner))
        return Shown(id: id)
    }
}
