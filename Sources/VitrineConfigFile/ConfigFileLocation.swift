#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

/// Where an app's own program finds its configuration file when none is named: next to
/// the executable (an installed or bundled app), then in the package folder (a checkout's
/// build, run from any folder), then in `$XDG_CONFIG_HOME/<app-id>/` (`~/.config/<app-id>/`
/// when the variable is unset or relative, as the XDG spec says). The first regular file wins.
public enum ConfigFileLocation {
    /// The file's name in each folder.
    public static let fileName = "vitrine.toml"

    /// The folders' files in the order they are tried.
    public static func candidates(executable: URL, packageFolder: URL?, appID: String,
                                  environment: [String: String] = ProcessInfo.processInfo.environment) -> [URL] {
        var folders = [executable.resolvingSymlinksInPath().deletingLastPathComponent()]
        if let packageFolder { folders.append(packageFolder) }
        if let configHome = configHome(environment) { folders.append(configHome.appendingPathComponent(appID)) }
        return folders.map { $0.appendingPathComponent(fileName).standardizedFileURL }
    }

    /// The first candidate that is a regular file (a folder named like it does not count).
    public static func find(executable: URL, packageFolder: URL?, appID: String,
                            environment: [String: String] = ProcessInfo.processInfo.environment) -> URL? {
        candidates(executable: executable, packageFolder: packageFolder, appID: appID, environment: environment)
            .first { FileSystem.isRegularFile($0.path) }
    }

    /// `$XDG_CONFIG_HOME` when absolute, else `$HOME/.config`; nil with neither.
    static func configHome(_ environment: [String: String]) -> URL? {
        if let home = environment["XDG_CONFIG_HOME"], home.hasPrefix("/") { return URL(fileURLWithPath: home) }
        guard let home = environment["HOME"], home.hasPrefix("/") else { return nil }
        return URL(fileURLWithPath: home).appendingPathComponent(".config")
    }
}
