#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

/// Puts a preset, a configuration file's settings and the command line's overrides
/// together into one `Configurator`, in that order of precedence (last wins).
enum ConfigAssembly {
    /// The preset refined by the command line alone. Nothing here can fail: only a file's
    /// handlers can (a `home` handler with no page to go to).
    static func configurator(overrides: ConfigOverrides, resources: ResourceLocator) -> Configurator {
        let preset = overrides.preset ?? (overrides.startURL == nil && overrides.appDirectory == nil ? .demo : .default)
        let start = startingPoint(preset: preset, settings: ConfigSettings(), overrides: overrides, resources: resources)
        return refined(start, settings: ConfigSettings(), overrides: overrides)
    }

    /// The file's preset refined by the file, then by the command line. A handler that
    /// cannot be made is left out and its problem added to `problems`, so that the file's
    /// other problems are still found; `startPageWritten`: the file writes a start-url or
    /// app-dir (then a home handler missing its page is that key's problem, reported already).
    static func configurator(
        settings: ConfigSettings, file: String, overrides: ConfigOverrides, resources: ResourceLocator,
        startPageWritten: Bool, problems: inout [ConfigFileError]
    ) -> Configurator {
        let preset = overrides.preset ?? settings.preset ?? .default
        var configurator = startingPoint(preset: preset, settings: settings, overrides: overrides, resources: resources)
        // The chain before the options: a kiosk's external-links refines whichever chain is in place.
        let downloads = settings.downloadDirectory != nil
        if let entries = settings.handlers {
            var handlers: [any NavigationActionHandler] = []
            for entry in entries {
                do throws(ConfigFileError) {
                    handlers.append(try entry.make(HandlerEntry(file: file, position: entry.position, displayPath: entry.displayPath,
                                                                startPage: configurator.startPage, downloadsConfigured: downloads)))
                } catch {
                    if !startPageWritten { problems.append(error) }
                }
            }
            configurator = configurator.navigationHandlers(handlers)
        } else if downloads {
            // The preset's chain, with its end downloading what the view cannot show.
            configurator = configurator.mapChain { chain in
                chain.names.contains(DefaultAllowHandler.typeName) ? chain.replacing(DefaultAllowHandler(allowsDownloads: true)) : chain
            }
        }
        return refined(configurator, settings: settings, overrides: overrides)
    }

    /// The preset with the start page in place: an explicit URL; else the app folder's
    /// index page (a preset's own start page belongs to the preset's app folder, which was
    /// replaced); else the preset's.
    private static func startingPoint(
        preset: Preset, settings: ConfigSettings, overrides: ConfigOverrides, resources: ResourceLocator
    ) -> Configurator {
        var configurator = ConfiguratorFactory.make(for: preset, resources: resources)
        let explicitStart = overrides.startURL ?? settings.startURL
        if let appDirectory = overrides.appDirectory ?? settings.appDirectory {
            configurator = configurator.appDirectory(appDirectory, host: "app")
            if explicitStart == nil { configurator = configurator.startURL(nil) }
        }
        if let explicitStart { configurator = configurator.startURL(explicitStart) }
        // The demo's stock id belongs to the demo: another page or folder gets its own.
        if explicitStart != nil || overrides.appDirectory ?? settings.appDirectory != nil { configurator = configurator.appID(nil) }
        return configurator
    }

    /// Every declared option (the file's value, then the command line's, which wins or,
    /// for a list, adds), then the file's strategies, tabs and certificates.
    /// Each refines what the configurator holds so far, so what a preset chose is read
    /// from the configurator itself (its window size, kiosk options, strategies).
    private static func refined(_ start: Configurator, settings: ConfigSettings, overrides: ConfigOverrides) -> Configurator {
        var configurator = start
        let fromCommandLine = overrides.values
        for option in ConfigOptions.all {
            guard let apply = option.apply else { continue }
            if case .section = option.kind {
                if settings.sections.contains(option.key) { configurator = apply(configurator, .bool(true)) }
                continue
            }
            if let value = settings.values[option.key] { configurator = apply(configurator, value) }
            if let flag = option.flag, let value = fromCommandLine[flag] { configurator = apply(configurator, value) }
        }

        if let identifiers = settings.strategies {
            for identifier in configurator.strategies.identifiers { configurator = configurator.removingStrategy(identifier) }
            for identifier in identifiers {
                if let strategy = strategy(identifier) { configurator = configurator.strategy(strategy) }
            }
        }
        for (identifier, origins) in settings.strategyOrigins { configurator = configurator.strategyOrigins(identifier, origins) }
        if let tabs = settings.tabs { configurator = configurator.tabs(tabs) }
        if let sidecars = settings.sidecars { configurator = configurator.preference(\.sidecars, sidecars) }
        for exception in settings.trustedCertificates {
            configurator = configurator.trustCertificate(at: exception.certificatePath, forHost: exception.host)
        }
        let network = settings.network
        configurator = configurator.network {
            if !network.noProxy.isEmpty { $0.noProxy = network.noProxy }
            $0.caCertificates += network.caCertificates
            $0.clientCertificates += network.clientCertificates
            $0.credentials += network.credentials
        }
        configurator = configurator.mqttIfPresent {
            $0.password = settings.mqttPassword ?? $0.password
            $0.caCertificates += settings.mqttCACertificates
        }
        if let passwordFile = settings.vncPasswordFile {
            configurator = configurator.remoteView { $0.passwordFile = passwordFile }
        }
        return configurator
    }

    /// A kiosk's `external-links = "browser"`: an external-browser handler just before the
    /// origin allow-list (else before default-allow, else last), unless the chain has one.
    static func insertingExternalBrowser(_ chain: NavigationChain) -> NavigationChain {
        let names = chain.names
        guard !names.contains(ExternalBrowserHandler.typeName) else { return chain }
        let anchor = names.contains(OriginAllowlistHandler.typeName) ? OriginAllowlistHandler.typeName : DefaultAllowHandler.typeName
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
