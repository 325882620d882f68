#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Sends links to sites outside the app to the desktop's browser and cancels them in the
/// view, so the container never becomes a general browser.
public struct ExternalBrowserHandler: NavigationActionHandler {
    /// The name the chain reports and a configuration file's `type` uses.
    public nonisolated static let typeName = "external-browser"
    public nonisolated let name = Self.typeName
    /// The app's own origins: navigations to these stay in the view. Nil: the
    /// configuration's app origins.
    public nonisolated let appOrigins: Set<Origin>?
    /// Schemes the desktop handles (web pages, mail, phone).
    public nonisolated let externalSchemes: Set<String>

    /// The schemes handed to the desktop by default (the `shell` capability's too).
    public nonisolated static let defaultExternalSchemes: Set<String> = ["http", "https", "mailto", "tel"]

    public nonisolated init(appOrigins: Set<Origin>? = nil, externalSchemes: Set<String> = Self.defaultExternalSchemes) {
        self.appOrigins = appOrigins
        self.externalSchemes = externalSchemes
    }

    public func handle(_ action: NavigationAction, context: NavigationContext) async -> HandlerResult {
        // Only what the user asked for: a script's redirect must not spawn browsers.
        guard action.navigationType == .linkActivated || action.target == .newWindow || action.isUserGesture,
              let scheme = action.url.scheme?.lowercased(), externalSchemes.contains(scheme)
        else { return .pass }
        if let origin = Origin(action.url), (appOrigins ?? context.appOrigins).contains(origin) { return .pass }
        context.host.openExternally(action.url)
        return .decide(.cancel)
    }
}
