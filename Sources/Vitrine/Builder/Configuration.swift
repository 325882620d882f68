#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Everything a container needs, fixed once built. Only `Configurator.build()` makes one:
/// the initialiser is internal, so a half-filled configuration cannot exist.
public struct Configuration: Sendable {
    public let startURL: URL?
    /// The window title, until (or unless) the page's title replaces it.
    public let title: String
    public let navigationChain: NavigationChain
    public let strategies: ScriptMessageStrategies
    /// User scripts, including those options attach (disable zoom).
    public let userScripts: [UserScript]
    public let disablesZoom: Bool
    public let titleFollowsPage: Bool
    public let windowSize: WindowSize
    public let fullscreen: Bool
    public let userAgent: String?
    public let developerTools: Bool
    /// Origins that belong to the app, besides the start URL's.
    public let allowedOrigins: Set<Origin>
    /// A folder served under `app://<host>/`.
    public let appDirectory: AppDirectory?
    /// Native tabs; empty: one view, no tab bar.
    public let tabs: [Tab]
    /// Per strategy, the origins allowed to call it; a strategy not listed here accepts
    /// only the app's own origins.
    public let strategyOrigins: [String: Set<Origin>]
    /// Kiosk behaviour; nil for an ordinary window.
    public let kiosk: KioskOptions?
    public let permissions: [PermissionGrant]
    public let tlsExceptions: [TLSException]
    /// Where downloads go; nil: downloads are refused.
    public let downloadDirectory: URL?
    /// Show Vitrine's own error page (with automatic retry) when a load fails.
    public let showsErrorPages: Bool
    /// Bring the page back when its web process dies or hangs.
    public let recoversFromCrashes: Bool

    init(
        startURL: URL?, title: String, navigationChain: NavigationChain, strategies: ScriptMessageStrategies,
        userScripts: [UserScript], disablesZoom: Bool, titleFollowsPage: Bool, windowSize: WindowSize,
        fullscreen: Bool, userAgent: String?, developerTools: Bool, allowedOrigins: Set<Origin>,
        appDirectory: AppDirectory?, tabs: [Tab], strategyOrigins: [String: Set<Origin>], kiosk: KioskOptions?,
        permissions: [PermissionGrant], tlsExceptions: [TLSException], downloadDirectory: URL?,
        showsErrorPages: Bool, recoversFromCrashes: Bool
    ) {
        self.startURL = startURL
        self.title = title
        self.navigationChain = navigationChain
        self.strategies = strategies
        self.userScripts = userScripts
        self.disablesZoom = disablesZoom
        self.titleFollowsPage = titleFollowsPage
        self.windowSize = windowSize
        self.fullscreen = fullscreen
        self.userAgent = userAgent
        self.developerTools = developerTools
        self.allowedOrigins = allowedOrigins
        self.appDirectory = appDirectory
        var origins = allowedOrigins
        if let startURL, let origin = Origin(startURL) { origins.insert(origin) }
        if let appDirectory, let origin = Origin(appDirectory.rootURL) { origins.insert(origin) }
        self.appOrigins = origins
        self.tabs = tabs
        self.strategyOrigins = strategyOrigins
        self.kiosk = kiosk
        self.permissions = permissions
        self.tlsExceptions = tlsExceptions
        self.downloadDirectory = downloadDirectory
        self.showsErrorPages = showsErrorPages
        self.recoversFromCrashes = recoversFromCrashes
    }

    /// The origins allowed to call `strategy`: its own list, or the app's origins.
    public func allowedOrigins(forStrategy identifier: String) -> Set<Origin> {
        strategyOrigins[identifier] ?? appOrigins
    }

    /// The permission kinds granted to `origin`.
    public func grantedPermissions(for origin: Origin?) -> Set<PermissionKind> {
        guard let origin else { return [] }
        return permissions.filter { $0.origin == origin }.reduce(into: []) { $0.formUnion($1.kinds) }
    }

    /// The app's own origins: the start URL's, the app directory's and the allowed ones.
    /// Computed once: every navigation decision and script message checks them.
    public let appOrigins: Set<Origin>
}

public struct WindowSize: Sendable, Equatable {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Whether `length` can be a window's width or height: the one rule the builder, a
    /// configuration file and the command line all apply.
    public static func accepts(_ length: Int) -> Bool { length > 0 }
}

/// A local folder served to the view under the `app` URL scheme.
public struct AppDirectory: Sendable, Equatable {
    public static let scheme = "app"

    public var path: URL
    public var host: String

    public init(path: URL, host: String = "app") {
        self.path = path
        self.host = host
    }

    /// `app://<host>/`
    public var rootURL: URL { URL(string: "\(Self.scheme)://\(host)/")! }
}
