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

    public init(id: String, title: String, body: String? = nil) {
        self.id = id
        self.title = title
        self.body = body
    }
}
