#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Everything a container needs, fixed once built. Only `Configurator.build()` makes one:
/// the initialiser is internal, so a half-filled configuration cannot exist.
///
/// The simple settings are read as its own properties (`configuration.title`,
/// `configuration.windowSize`): they are its `Preferences`, declared in
/// `Configuration+Preferences.swift`.
public struct Configuration: Sendable {
    public let preferences: Preferences
    public let startURL: URL?
    public let navigationChain: NavigationChain
    public let strategies: ScriptMessageStrategies
    /// User scripts, including those options attach (disable zoom).
    public let userScripts: [UserScript]
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
    public let network: NetworkSettings
    /// The native capabilities granted to each origin (`[capabilities]`).
    public let capabilities: CapabilityGrants

    init(
        preferences: Preferences, startURL: URL?, navigationChain: NavigationChain, strategies: ScriptMessageStrategies,
        userScripts: [UserScript], allowedOrigins: Set<Origin>, appDirectory: AppDirectory?, tabs: [Tab],
        strategyOrigins: [String: Set<Origin>], kiosk: KioskOptions?, permissions: [PermissionGrant], tlsExceptions: [TLSException],
        network: NetworkSettings, capabilities: CapabilityGrants
    ) {
        self.preferences = preferences
        self.startURL = startURL
        self.navigationChain = navigationChain
        self.strategies = strategies
        self.userScripts = userScripts
        self.allowedOrigins = allowedOrigins
        self.appDirectory = appDirectory
        var origins = allowedOrigins
        if let startURL, let origin = Origin(startURL) { origins.insert(origin) }
        if let appDirectory, let origin = Origin(appDirectory.rootURL) { origins.insert(origin) }
        // A playlist bundle is served from the app's own data folder, as the app directory is.
        let bundles = (preferences.schedule.playlist + preferences.displays.flatMap(\.playlist)).compactMap(\.bundle)
        for bundle in bundles { if let origin = Origin(bundle.pageURL) { origins.insert(origin) } }
        self.appOrigins = origins
        self.tabs = tabs
        self.strategyOrigins = strategyOrigins
        self.kiosk = kiosk
        self.permissions = permissions
        self.tlsExceptions = tlsExceptions
        self.network = network
        self.capabilities = capabilities
    }

    /// The origins allowed to call `strategy`: its own list, or the app's origins and,
    /// for a capability's strategy, the origins granted it.
    public func allowedOrigins(forStrategy identifier: String) -> Set<Origin> {
        if let listed = strategyOrigins[identifier] { return listed }
        guard let capability = Capability(rawValue: identifier) else { return appOrigins }
        return appOrigins.union(capabilities.origins(grantedTo: capability))
    }

    /// The permission kinds granted to `origin`.
    public func grantedPermissions(for origin: Origin?) -> Set<PermissionKind> {
        guard let origin else { return [] }
        return permissions.filter { $0.origin == origin }.reduce(into: []) { $0.formUnion($1.kinds) }
    }

    /// The app's own origins: the start URL's, the app directory's, the playlist bundles' and the allowed ones.
    /// Computed once: every navigation decision and script message checks them.
    public let appOrigins: Set<Origin>

    /// This configuration with other preferences and start page (another window, display or
    /// id of the same app); everything else as it is, `allowedOrigins` and `tabs` unless given.
    func refined(preferences: Preferences, startURL: URL?, allowedOrigins: Set<Origin>? = nil, tabs: [Tab]? = nil,
                 strategies: ScriptMessageStrategies? = nil, userScripts: [UserScript]? = nil) -> Configuration {
        Configuration(
            preferences: preferences, startURL: startURL, navigationChain: navigationChain, strategies: strategies ?? self.strategies,
            userScripts: userScripts ?? self.userScripts, allowedOrigins: allowedOrigins ?? self.allowedOrigins, appDirectory: appDirectory,
            tabs: tabs ?? self.tabs, strategyOrigins: strategyOrigins, kiosk: kiosk, permissions: permissions,
            tlsExceptions: tlsExceptions, network: network, capabilities: capabilities)
    }
}

