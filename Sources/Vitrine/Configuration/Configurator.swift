#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The Builder: collects options step by step and builds an immutable `Configuration`.
///
/// A value type: every option returns a refined copy, so a preset can be refined by one
/// caller without affecting another (`ConfiguratorFactory.make(for: .default).disableZoom()`).
public struct Configurator: Sendable {
    /// The page set to open; nil: the app folder's index page, if any (see `startPage`).
    public private(set) var startURL: URL?
    private var chain = NavigationChain()
    public private(set) var strategies = ScriptMessageStrategies()
    /// The simple settings (title, window size, …), each set by its own method or by
    /// `preference(_:_:)`.
    public private(set) var preferences = Preferences()
    private var userScripts: [UserScript] = []
    private var allowedOrigins: Set<Origin> = []
    private var appDirectory: AppDirectory?
    private var tabs: [Tab] = []
    private var strategyOrigins: [String: Set<Origin>] = [:]
    public private(set) var kiosk: KioskOptions?
    private var permissions: [PermissionGrant] = []
    private var capabilities = CapabilityGrants()
    private var tlsExceptions: [TLSException] = []
    public private(set) var network = NetworkSettings()
    /// Every print destination set, to refuse more than one (`printer` and `output-uri`).
    private var printDestinations: [PrintDestination] = []

    /// An empty configurator: no handlers (every navigation is cancelled), no strategies.
    /// Start from `ConfiguratorFactory` for a working preset.
    public init() {}

    // MARK: Options

    public func startURL(_ url: URL?) -> Configurator { with { $0.startURL = url } }
    public func title(_ title: String) -> Configurator { preference(\.title, title) }
    /// The app's reverse-DNS id (`org.example.Shop`, checked by `build()`): its bus name,
    /// window class and data folder. nil: derived (see `ApplicationID.derived`).
    public func appID(_ id: String?) -> Configurator { preference(\.applicationID, id) }

    /// Replaces the whole navigation chain.
    public func navigationChain(_ chain: NavigationChain) -> Configurator { with { $0.chain = chain } }
    /// Replaces the chain's handlers, keeping its timeout and clock.
    public func navigationHandlers(_ handlers: [any NavigationActionHandler]) -> Configurator {
        with { $0.chain = $0.chain.withHandlers(handlers) }
    }
    /// Puts `handler` at the head of the chain.
    public func prependingHandler(_ handler: any NavigationActionHandler) -> Configurator {
        with { $0.chain = $0.chain.prepending(handler) }
    }
    /// Transforms the chain (insert, remove, reorder) without rebuilding it by hand.
    public func mapChain(_ transform: (NavigationChain) -> NavigationChain) -> Configurator {
        with { $0.chain = transform($0.chain) }
    }
    /// How long an async handler may take before the decision fails closed.
    public func decisionTimeout(_ timeout: Duration) -> Configurator {
        with { $0.chain = $0.chain.withDefaultTimeout(timeout) }
    }

    /// Adds a strategy, replacing one with the same identifier.
    public func strategy(_ strategy: any ScriptMessageStrategy) -> Configurator {
        with { $0.strategies = $0.strategies.adding(strategy) }
    }
    public func removingStrategy(_ identifier: String) -> Configurator {
        with { $0.strategies = $0.strategies.removing(identifier) }
    }

    public func userScript(_ script: UserScript) -> Configurator { with { $0.userScripts.append(script) } }
    public func disableZoom(_ disabled: Bool = true) -> Configurator { preference(\.disablesZoom, disabled) }
    public func titleFollowsPage(_ follows: Bool = true) -> Configurator { preference(\.titleFollowsPage, follows) }
    public func windowSize(width: Int, height: Int) -> Configurator {
        preference(\.windowSize, WindowSize(width: width, height: height))
    }
    public func fullscreen(_ fullscreen: Bool = true) -> Configurator { preference(\.fullscreen, fullscreen) }
    public func userAgent(_ userAgent: String?) -> Configurator { preference(\.userAgent, userAgent) }
    public func developerTools(_ enabled: Bool = true) -> Configurator { preference(\.developerTools, enabled) }
    public func allowOrigin(_ origin: Origin) -> Configurator { with { $0.allowedOrigins.insert(origin) } }
    /// Serves `directory` under `app://<host>/`.
    public func appDirectory(_ directory: URL?, host: String = "app") -> Configurator {
        with { $0.appDirectory = directory.map { AppDirectory(path: $0, host: host) } }
    }

    /// Declares native tabs; the first is the home tab.
    public func tabs(_ tabs: [Tab]) -> Configurator { with { $0.tabs = tabs } }
    /// The origins allowed to call a strategy (default: the app's own origins).
    public func strategyOrigins(_ identifier: String, _ origins: Set<Origin>) -> Configurator {
        with { $0.strategyOrigins[identifier] = origins }
    }
    public func kiosk(_ options: KioskOptions?) -> Configurator { with { $0.kiosk = options } }
    /// Grants permission kinds to an origin (adds to earlier grants).
    public func grantPermissions(_ kinds: Set<PermissionKind>, to origin: Origin) -> Configurator {
        with { $0.permissions.append(PermissionGrant(origin: origin, kinds: kinds)) }
    }
    /// Grants native capabilities to an origin's pages (adds to earlier grants).
    public func grantCapabilities(_ granted: Set<Capability>, to origin: Origin) -> Configurator {
        with { $0.capabilities = $0.capabilities.granting(granted, to: origin) }
    }
    public func trustCertificate(at path: String, forHost host: String) -> Configurator {
        with { $0.tlsExceptions.append(TLSException(host: host.lowercased(), certificatePath: path)) }
    }
    /// Enables downloads into `directory` (nil: downloads are refused).
    /// `[network]`: the proxy, extra trust anchors, client certificates and credentials.
    public func network(_ change: (inout NetworkSettings) -> Void) -> Configurator { with { change(&$0.network) } }
    public func proxy(_ proxy: NetworkProxy?, except hosts: [String] = []) -> Configurator {
        network { $0.proxy = proxy; $0.noProxy = hosts }
    }
    public func trustCertificateAuthority(at path: String) -> Configurator { network { $0.caCertificates.append(path) } }
    public func clientCertificate(_ certificate: ClientCertificate) -> Configurator { network { $0.clientCertificates.append(certificate) } }
    public func credential(_ credential: HTTPCredential) -> Configurator { network { $0.credentials.append(credential) } }

    public func downloadDirectory(_ directory: URL?) -> Configurator { preference(\.downloadDirectory, directory) }
    public func showsErrorPages(_ shows: Bool = true) -> Configurator { preference(\.showsErrorPages, shows) }
    public func recoversFromCrashes(_ recovers: Bool = true) -> Configurator { preference(\.recoversFromCrashes, recovers) }
    /// Turns silent printing on (to the system's default queue until a destination is set)
    /// and changes its settings.
    public func printing(_ change: (inout PrintSettings) -> Void = { _ in }) -> Configurator {
        var settings = preferences.printing ?? PrintSettings(destination: .systemDefault)
        change(&settings)
        return preference(\.printing, settings)
    }
    /// `[update]`: the signed update feed, its key, how often it is checked.
    public func update(_ change: (inout UpdateSettings) -> Void) -> Configurator {
        var settings = preferences.update
        change(&settings)
        return preference(\.update, settings)
    }
    /// Turns the VNC remote view on (loopback, view-only until changed) and changes its settings.
    public func remoteView(_ change: (inout RemoteViewSettings) -> Void = { _ in }) -> Configurator {
        var settings = preferences.remoteView ?? RemoteViewSettings()
        change(&settings)
        return preference(\.remoteView, settings)
    }
    /// Where silent printing goes; set twice, `build()` refuses the configuration.
    public func printDestination(_ destination: PrintDestination) -> Configurator {
        with { $0.printDestinations.append(destination) }.printing { $0.destination = destination }
    }

    /// The page the window opens: the start URL, else the app folder's index page.
    public var startPage: URL? { startURL ?? appDirectory.map { $0.rootURL.appendingPathComponent("index.html") } }

    /// Sets one of the simple settings.
    public func preference<Value>(_ field: WritableKeyPath<Preferences, Value>, _ value: Value) -> Configurator {
        with { $0.preferences[keyPath: field] = value }
    }

    // MARK: Building

    /// Checks the options and builds the configuration. Options that attach scripts
    /// (disable zoom) attach them here, so the built configuration carries them.
    public func build() throws -> Configuration {
        if let problem = problems.first { throw problem }
        return buildUnchecked()
    }

    /// Every option that cannot make a working configuration, in the order `build()` checks
    /// them, each with the file key it is about: a file reports them all at once.
    public var problems: [ConfigurationError] {
        var problems: [ConfigurationError] = []
        func problem(_ message: String, _ key: String) { problems.append(ConfigurationError(message, key: key)) }
        let windowSize = preferences.windowSize
        if !WindowSize.accepts(windowSize.width) || !WindowSize.accepts(windowSize.height) {
            problem("window size must be positive, got \(windowSize.width)x\(windowSize.height)",
                    WindowSize.accepts(windowSize.width) ? "window.height" : "window.width")
        }
        if let startURL, startURL.scheme == nil { problem("start URL '\(startURL.absoluteString)' has no scheme", "start-url") }
        if let id = preferences.applicationID, let reason = ApplicationID.problem(with: id) {
            problem("app-id '\(id)' is not a reverse-DNS application id such as org.example.Shop: \(reason)", "app-id")
        }
        if let appDirectory, !FileSystem.isDirectory(appDirectory.path.path) {
            problem("app directory '\(appDirectory.path.path)' is not a folder", "app-dir")
        }
        for tab in tabs where tab.url.scheme == nil { problem("tab '\(tab.title)' URL '\(tab.url.absoluteString)' has no scheme", "tabs") }
        for exception in tlsExceptions where !FileSystem.isRegularFile(exception.certificatePath) {
            problem("certificate '\(exception.certificatePath)' for host '\(exception.host)' cannot be read", "tls.trust")
        }
        for file in network.caCertificates where !FileSystem.isRegularFile(file) {
            problem("network file '\(file)' cannot be read", "network.ca-certificates")
        }
        for file in network.clientCertificates.flatMap({ [$0.certificatePath, $0.keyPath] }) where !FileSystem.isRegularFile(file) {
            problem("network file '\(file)' cannot be read", "network.client-certificate")
        }
        if let kiosk {
            if let idle = kiosk.idleReset, idle <= .zero { problem("kiosk idle reset must be positive", "kiosk.idle-reset") }
            if !KioskOptions.acceptsCrashLoopLimit(kiosk.crashLoopLimit) {
                problem("kiosk crash-loop limit must be at least 1", "kiosk.crash-loop-limit")
            }
        }
        if printDestinations.count > 1 {
            problem("printing has two destinations (\(printDestinations.map(\.name).joined(separator: " and "))): give either printer or output-uri",
                    "printing.output-uri")
        }
        if case .file(let uri)? = preferences.printing?.destination, let reason = PrintOutputFile.problem(uri) {
            problem("printing output-uri '\(uri.absoluteString)' \(reason)", "printing.output-uri")
        }
        if let copies = preferences.printing?.copies, !PrintSettings.acceptsCopies(copies) {
            problem("printing copies must be from 1 to 99, got \(copies)", "printing.copies")
        }
        for scheme in preferences.urlSchemes {
            if let reason = AppURLScheme.problem(with: scheme) { problem("url scheme '\(scheme)': \(reason)", "app.url-schemes") }
        }
        if let (message, key) = preferences.update.problem { problem(message, key) }
        if kiosk != nil && !preferences.urlSchemes.isEmpty {
            problem("url-schemes: a kiosk takes no deep links (the desktop cannot start or steer it)", "app.url-schemes")
        }
        return problems
    }

    /// The configuration without the checks of `problems`: for a configuration file, which
    /// reports them with the problems only the built configuration shows (its pages).
    package func buildUnchecked() -> Configuration {
        var scripts = userScripts
        if preferences.disablesZoom { scripts.append(.disableZoom) }
        var preferences = preferences
        // Derived once, here: a symlinked app folder repointed later does not move the app's data.
        if preferences.applicationID == nil {
            preferences.applicationID = ApplicationID.derived(startURL: startPage, appDirectory: appDirectory?.path)
            preferences.applicationIDIsDerived = true
        }
        return Configuration(
            preferences: preferences, startURL: startPage, navigationChain: chainTakingDeepLinks, strategies: strategies,
            userScripts: scripts, allowedOrigins: allowedOrigins, appDirectory: appDirectory, tabs: tabs,
            strategyOrigins: strategyOrigins, kiosk: kiosk, permissions: permissions, tlsExceptions: tlsExceptions,
            network: network, capabilities: capabilities)
    }

    /// The chain, headed by a deep-link handler for the app's URL schemes unless one of
    /// its handlers takes them already: a deep link is never loaded as a page.
    private var chainTakingDeepLinks: NavigationChain {
        let schemes = Set(preferences.urlSchemes)
        let taken = chain.handlers.compactMap { ($0 as? DeepLinkHandler)?.schemes }.reduce(into: Set<String>()) { $0.formUnion($1) }
        guard !schemes.isSubset(of: taken) else { return chain }
        return chain.prepending(DeepLinkHandler(schemes: schemes.subtracting(taken)))
    }

    private func with(_ change: (inout Configurator) -> Void) -> Configurator {
        var copy = self
        change(&copy)
        return copy
    }
}

