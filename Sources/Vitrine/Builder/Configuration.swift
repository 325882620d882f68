import Foundation

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

    init(
        startURL: URL?, title: String, navigationChain: NavigationChain, strategies: ScriptMessageStrategies,
        userScripts: [UserScript], disablesZoom: Bool, titleFollowsPage: Bool, windowSize: WindowSize,
        fullscreen: Bool, userAgent: String?, developerTools: Bool, allowedOrigins: Set<Origin>,
        appDirectory: AppDirectory?
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
    }

    /// The app's own origins: the start URL's, the app directory's and the allowed ones.
    public var appOrigins: Set<Origin> {
        var origins = allowedOrigins
        if let startURL, let origin = Origin(startURL) { origins.insert(origin) }
        if let appDirectory, let origin = Origin(appDirectory.rootURL) { origins.insert(origin) }
        return origins
    }
}

public struct WindowSize: Sendable, Equatable {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
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
