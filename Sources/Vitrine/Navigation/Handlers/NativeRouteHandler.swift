#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Turns URLs matching path patterns (`/product/:id`) into native routes: the page is shown
/// by native code and the web navigation is cancelled.
public struct NativeRouteHandler: NavigationActionHandler {
    /// The name the chain reports and a configuration file's `type` uses.
    public nonisolated static let typeName = "native-route"
    public nonisolated let name = Self.typeName
    public nonisolated let routes: [RoutePattern]
    /// Only URLs of these origins are routed (empty: any origin).
    public nonisolated let origins: Set<Origin>

    public nonisolated init(routes: [RoutePattern], origins: Set<Origin> = []) {
        self.routes = routes
        self.origins = origins
    }

    public func handle(_ action: NavigationAction, context: NavigationContext) async -> HandlerResult {
        if !origins.isEmpty {
            guard let origin = Origin(action.url), origins.contains(origin) else { return .pass }
        }
        // The still-encoded path: `URL.path` is already decoded, so matching it would decode
        // parameters twice ("%2525" → "%") and split on encoded slashes ("a%2Fb").
        let path = action.url.path(percentEncoded: true)
        for route in routes {
            if let parameters = route.match(path) {
                context.host.present(NativeRoute(name: route.name, parameters: parameters, url: action.url))
                return .decide(.cancel)
            }
        }
        return .pass
    }
}

