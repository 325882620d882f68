#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Cancels every navigation whose origin is not on the list, and passes the rest on.
/// URLs with an opaque origin (`data:`, `javascript:`, `file:`) are cancelled too, except
/// `about:blank`, which empty frames need.
public struct OriginAllowlistHandler: NavigationActionHandler {
    /// The name the chain reports and a configuration file's `type` uses.
    public static let typeName = "origin-allowlist"
    public let name = Self.typeName
    /// The allowed origins. Nil: the configuration's app origins.
    public let origins: Set<Origin>?

    public init(origins: Set<Origin>? = nil) {
        self.origins = origins
    }

    @MainActor
    public func handle(_ action: NavigationAction, context: NavigationContext) async -> HandlerResult {
        if action.url.absoluteString == "about:blank" { return .pass }
        guard let origin = Origin(action.url), (origins ?? context.appOrigins).contains(origin) else { return .decide(.cancel) }
        return .pass
    }
}
