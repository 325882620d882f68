#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

extension VitrineApplication {
    /// `configuration` with the command that starts this app again — this program with
    /// the configuration file it was given — unless the embedder named one: the `Exec` of
    /// the app's autostart and desktop entries.
    static func withLaunchCommand(_ configuration: Configuration, configFile: ConfigurationFile?) -> Configuration {
        guard configuration.preferences.launchCommand == nil else { return configuration }
        let config = configFile.map { ["--config", URL(fileURLWithPath: $0.path).standardizedFileURL.path] } ?? []
        return configuration.launched(by: [DesktopEntry.runningProgram] + config)
    }

    /// Tells the app's page a deep link the desktop handed to the running app (`xdg-open
    /// myapp://…` while it runs): through the container's chain, as at start.
    @discardableResult
    public func openDeepLink(_ url: URL) -> String? {
        guard let container else { return "deep link: the app has no window yet" }
        return container.feature(DeepLinkFeature.self)?.open(url) ?? "deep link: the window takes no deep links"
    }
}
