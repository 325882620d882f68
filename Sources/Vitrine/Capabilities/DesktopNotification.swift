#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A desktop notification a page asked for.
public struct DesktopNotification: Sendable, Equatable {
    /// The page's id for it (a new one replaces an older one with the same id).
    public var id: String
    public var title: String
    public var body: String?
    /// Its buttons (at most `NotificationAction.maximumCount`).
    public var actions: [NotificationAction]
    /// The top document that showed it: the only one that hears its buttons, while it is
    /// shown. Nil for a notification without buttons.
    public var owner: FrameToken?

    public init(id: String, title: String, body: String? = nil, actions: [NotificationAction] = [], owner: FrameToken? = nil) {
        self.id = id
        self.title = title
        self.body = body
        self.actions = actions
        self.owner = owner
    }
}
