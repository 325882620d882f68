#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Handles the app's own URL schemes (`myapp://…`) natively: the link becomes a native
/// route named `deep-link`, and the web view never tries to load it.
public struct DeepLinkHandler: NavigationActionHandler {
    /// The name the chain reports and a configuration file's `type` uses.
    public nonisolated static let typeName = "deep-link"
    public nonisolated let name = Self.typeName
    public nonisolated let schemes: Set<String>

    public nonisolated init(schemes: Set<String>) {
        self.schemes = Set(schemes.map { $0.lowercased() })
    }

    public func handle(_ action: NavigationAction, context: NavigationContext) async -> HandlerResult {
        guard let scheme = action.url.scheme?.lowercased(), schemes.contains(scheme) else { return .pass }
        var parameters = ["scheme": scheme]
        if let host = action.url.host { parameters["host"] = host }
        if !action.url.path.isEmpty { parameters["path"] = action.url.path }
        context.host.present(NativeRoute(name: "deep-link", parameters: parameters, url: action.url))
        return .decide(.cancel)
    }
}
