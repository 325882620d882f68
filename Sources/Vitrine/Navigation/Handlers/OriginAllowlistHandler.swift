#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Cancels every navigation whose document's origin is not on the list, and passes the rest
/// on. Origins are the URL standard's (`NavigationAction.documentOrigin`): a `blob:` URL
/// the app made is of the app's origin, an `about:blank` or `about:srcdoc` frame of its
/// page's; an opaque origin (`data:`, `javascript:`, `file:`, a sandboxed or parentless
/// `about:` document) matches no list.
public struct OriginAllowlistHandler: NavigationActionHandler {
    /// The name the chain reports and a configuration file's `type` uses.
    public nonisolated static let typeName = "origin-allowlist"
    public nonisolated let name = Self.typeName
    /// The allowed origins. Nil: the configuration's app origins.
    public nonisolated let origins: Set<Origin>?

    public nonisolated init(origins: Set<Origin>? = nil) {
        self.origins = origins
    }

    public func handle(_ action: NavigationAction, context: NavigationContext) async -> HandlerResult {
        guard let origin = action.documentOrigin, (origins ?? context.appOrigins).contains(origin) else { return .decide(.cancel) }
        return .pass
    }
}
