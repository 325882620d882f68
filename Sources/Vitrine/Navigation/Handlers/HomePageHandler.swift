#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Recognises links to the home page. When the container can show home natively (a tab
/// bar switching to its first tab) the navigation is cancelled; otherwise home loads.
public struct HomePageHandler: NavigationActionHandler {
    /// The name the chain reports and a configuration file's `type` uses.
    public nonisolated static let typeName = "home"
    public nonisolated let name = Self.typeName
    public nonisolated let homeURL: URL

    public nonisolated init(homeURL: URL) {
        self.homeURL = homeURL
    }

    public func handle(_ action: NavigationAction, context: NavigationContext) async -> HandlerResult {
        // Only a user's link: the first load of the start page is not a "go home".
        guard action.navigationType == .linkActivated, action.url.isSamePage(as: homeURL) else { return .pass }
        return .decide(context.host.showHome() ? .cancel : .allow)
    }
}
