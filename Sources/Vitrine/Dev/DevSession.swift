#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What `vitrine dev` tells an app's own program it runs for a developer: the web folder to
/// watch (live reload), through the environment — the program is the app's, built from its
/// package, with its own command line. The application object (`VitrineApplication`) reads
/// it; a program started without it is not in dev mode.
public struct DevSession: Sendable, Equatable {
    /// The variable naming the watched folder (an absolute path to a folder).
    public static let environmentVariable = "VITRINE_DEV_WATCH"

    /// The web folder whose changes reload the page.
    public let watchedFolder: URL

    public init(watchedFolder: URL) {
        self.watchedFolder = watchedFolder.standardizedFileURL
    }

    /// The session the environment names, or nil (unset, relative, or not a folder).
    public init?(environment: [String: String] = ProcessInfo.processInfo.environment) {
        guard let path = environment[Self.environmentVariable], path.hasPrefix("/"), FileSystem.isDirectory(path) else { return nil }
        self.init(watchedFolder: URL(fileURLWithPath: path))
    }

    /// The environment entry that names this session for a child program.
    public var environmentEntry: (String, String) { (Self.environmentVariable, watchedFolder.path) }
}

extension Configuration {
    /// This configuration for a developer: the web inspector on, and the page's errors
    /// reported (`dev-console`: `consoleScript` in every frame, its strategy calling `report`).
    public func forDevelopment(consoleScript: String?, report: @escaping @MainActor @Sendable (String) -> Void) -> Configuration {
        var preferences = preferences
        preferences.developerTools = true
        guard let consoleScript else { return refined(preferences: preferences, startURL: startURL) }
        return refined(preferences: preferences, startURL: startURL,
                       strategies: strategies.adding(DevConsoleStrategy(report: report)),
                       userScripts: userScripts + [UserScript(source: consoleScript, injectionTime: .documentStart, frames: .allFrames)])
    }
}
