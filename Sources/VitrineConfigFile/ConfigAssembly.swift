#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

/// Puts a preset, a configuration file's settings and the command line's overrides
/// together into one `Configurator`, in that order of precedence (last wins).
enum ConfigAssembly {
    static func configurator(
        settings: ConfigSettings?, file: String, overrides: ConfigOverrides, resources: ResourceLocator
    ) throws(ConfigFileError) -> Configurator {
        let fromFile = settings ?? ConfigSettings()
        let preset = overrides.preset ?? settings?.preset
            ?? (settings == nil && overrides.startURL == nil && overrides.appDirectory == nil ? .app : .default)
        let base = ConfiguratorFactory.make(for: preset, resources: resources)
        // What the preset chose, where a setting refines rather than replaces it.
        let presetConfiguration = try? base.build()
        var configurator = base

        // Where the window starts: an explicit URL; else the app folder's index page (a
        // preset's own start page belongs to the preset's app folder, which was replaced).
        let explicitStart = overrides.startURL ?? fromFile.startURL
        let appDirectory = overrides.appDirectory ?? fromFile.appDirectory
        if let appDirectory {
            configurator = configurator.appDirectory(appDirectory, host: "app")
            if explicitStart == nil { configurator = configurator.startURL(nil) }
        }
        if let explicitStart { configurator = configurator.startURL(explicitStart) }
        let startURL = explicitStart
            ?? appDirectory.map { AppDirectory(path: $0, host: "app").rootURL.appendingPathComponent("index.html") }
            ?? presetConfiguration?.startURL

        if let title = fromFile.title { configurator = configurator.title(title) }
        if let userAgent = overrides.userAgent ?? fromFile.userAgent { configurator = configurator.userAgent(userAgent) }
        if let enabled = overrides.developerTools ?? fromFile.developerTools { configurator = configurator.developerTools(enabled) }
        if let disabled = fromFile.disablesZoom { configurator = configurator.disableZoom(disabled) }
        if let follows = fromFile.titleFollowsPage { configurator = configurator.titleFollowsPage(follows) }
        if let shows = fromFile.showsErrorPages { configurator = configurator.showsErrorPages(shows) }
        if let recovers = fromFile.recoversFromCrashes { configurator = configurator.recoversFromCrashes(recovers) }
        if let directory = fromFile.downloadDirectory { configurator = configurator.downloadDirectory(directory) }

        let width = overrides.width ?? fromFile.width, height = overrides.height ?? fromFile.height
        if width != nil || height != nil {
            let current = presetConfiguration?.windowSize ?? WindowSize(width: 1024, height: 768)
            configurator = configurator.windowSize(width: width ?? current.width, height: height ?? current.height)
        }
        if let fullscreen = overrides.fullscreen ?? fromFile.fullscreen { configurator = configurator.fullscreen(fullscreen) }
        for origin in fromFile.allowedOrigins + overrides.allowedOrigins { configurator = configurator.allowOrigin(origin) }

        // The chain.
        if let timeout = fromFile.decisionTimeout { configurator = configurator.decisionTimeout(timeout) }
        var errors: [ConfigFileError] = []
        let downloads = fromFile.downloadDirectory != nil
        if let settings = fromFile.handlers {
            var handlers: [any NavigationActionHandler] = []
            for setting in settings {
                switch setting.kind {
                case .deepLink(let schemes): handlers.append(DeepLinkHandler(schemes: schemes))
                case .home(let url):
                    guard let homeURL = url ?? startURL else {
                        errors.append(ConfigFileError(file: file, at: setting.position,
                            "\(setting.displayPath) is a home handler without url, and there is no start-url (or app-dir) for it to default to"))
                        continue
                    }
                    handlers.append(HomePageHandler(homeURL: homeURL))
                case .nativeRoute(let routes, let origins): handlers.append(NativeRouteHandler(routes: routes, origins: origins))
                case .payment(let prefixes, let timeout):
                    handlers.append(PaymentHandler(pathPrefixes: prefixes ?? ["/pay"], timeout: timeout ?? .seconds(300)))
                case .externalBrowser(let origins, let schemes):
                    handlers.append(schemes.map { ExternalBrowserHandler(appOrigins: origins, externalSchemes: $0) }
                        ?? ExternalBrowserHandler(appOrigins: origins))
                case .originAllowlist(let origins): handlers.append(OriginAllowlistHandler(origins: origins))
                case .defaultAllow(let allowsDownloads): handlers.append(DefaultAllowHandler(allowsDownloads: allowsDownloads ?? downloads))
                }
            }
            configurator = configurator.navigationHandlers(handlers)
        } else if downloads {
            // The preset's chain, with its end downloading what the view cannot show.
            configurator = configurator.mapChain { chain in
                chain.names.contains("default-allow") ? chain.replacing(DefaultAllowHandler(allowsDownloads: true)) : chain
            }
        }

        if let kiosk = fromFile.kiosk {
            configurator = configurator.kiosk(kiosk.applied(to: presetConfiguration?.kiosk ?? KioskOptions()))
            if kiosk.externalLinks == .browser {
                configurator = configurator.mapChain(insertingExternalBrowser)
            }
        }

        if let identifiers = fromFile.strategies {
            for identifier in presetConfiguration?.strategies.identifiers ?? ConfigFileDecoder.strategyIdentifiers {
                configurator = configurator.removingStrategy(identifier)
            }
            for identifier in identifiers {
                if let strategy = strategy(identifier) { configurator = configurator.strategy(strategy) }
            }
        }
        for (identifier, origins) in fromFile.strategyOrigins { configurator = configurator.strategyOrigins(identifier, origins) }
        if let tabs = fromFile.tabs { configurator = configurator.tabs(tabs) }
        for grant in fromFile.permissions { configurator = configurator.grantPermissions(grant.kinds, to: grant.origin) }
        for exception in fromFile.trustedCertificates {
            configurator = configurator.trustCertificate(at: exception.certificatePath, forHost: exception.host)
        }

        if var first = errors.first {
            first.otherErrors = Array(errors.dropFirst())
            throw first
        }
        return configurator
    }

    /// A kiosk's `external-links = "browser"`: an external-browser handler just before the
    /// origin allow-list (else before default-allow, else last), unless the chain has one.
    static func insertingExternalBrowser(_ chain: NavigationChain) -> NavigationChain {
        let names = chain.names
        guard !names.contains("external-browser") else { return chain }
        let anchor = names.contains("origin-allowlist") ? "origin-allowlist" : "default-allow"
        return chain.inserting(ExternalBrowserHandler(), before: anchor)
    }

    static func strategy(_ identifier: String) -> (any ScriptMessageStrategy)? {
        switch identifier {
        case PageStrategy.identifier: PageStrategy()
        case UserStrategy.identifier: UserStrategy()
        case PingStrategy.identifier: PingStrategy()
        default: nil
        }
    }
}
