#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The end of an open chain: allows every request, and every response WebKit can show.
/// A response WebKit cannot display is downloaded only when downloads are enabled.
public struct DefaultAllowHandler: NavigationActionHandler {
    /// The name the chain reports and a configuration file's `type` uses.
    public nonisolated static let typeName = "default-allow"
    public nonisolated let name = Self.typeName
    public nonisolated let decidesResponses = true
    public nonisolated let allowsDownloads: Bool

    public nonisolated init(allowsDownloads: Bool = false) {
        self.allowsDownloads = allowsDownloads
    }

    public func handle(_ action: NavigationAction, context: NavigationContext) async -> HandlerResult {
        guard let response = action.response, !response.canShowMIMEType else { return .decide(.allow) }
        return .decide(allowsDownloads ? .download : .cancel)
    }
}
