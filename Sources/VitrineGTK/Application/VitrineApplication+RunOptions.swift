#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

extension VitrineApplication {
    /// How a run ends and whether it is the single instance.
    public struct RunOptions: Sendable {
        /// Write a PNG of the view here after the first load (a one-shot run).
        public var screenshot: String?
        /// End once the first load has finished (a one-shot run).
        public var exitAfterLoad: Bool
        /// A one-shot run gives up (status 2) after this many seconds.
        public var loadTimeout: Double
        /// Be the session bus's instance of the app's id (false: run alone, no remote control).
        public var singleInstance: Bool
        /// A one-shot run's first load counts once the page's bridge is also up (an app's own
        /// page, which has the SDK: its bridge is up, whatever it shows).
        public var waitsForSDK: Bool
        /// Be driven by a WebDriver session (`--automation`, see `AutomationHost`): never
        /// the bus's instance, throwaway website data; refused where the configuration
        /// says so (status 1).
        public var automation: Bool
        /// A deep link (one of `[app] url-schemes`) the app was started with: handed to the
        /// running instance, or told to this one's page once it has loaded.
        public var deepLink: URL?

        public init(screenshot: String? = nil, exitAfterLoad: Bool = false, loadTimeout: Double = 60, singleInstance: Bool = true,
                    waitsForSDK: Bool = false, automation: Bool = false, deepLink: URL? = nil) {
            self.automation = automation
            self.deepLink = deepLink
            self.screenshot = screenshot
            self.exitAfterLoad = exitAfterLoad
            self.loadTimeout = loadTimeout
            self.singleInstance = singleInstance
            self.waitsForSDK = waitsForSDK
        }
    }

    /// The configuration file a run was started from, and how to read a pushed one the same
    /// way (the file's parser lives outside this library: VitrineConfigFile).
    public struct ConfigurationFile {
        public let path: String
        /// Reads a pushed file's text as the running one was read (the same command-line
        /// overrides); throws an error whose description lists every problem.
        public let read: @MainActor (String) throws -> Configuration
        /// A pushed file's text completed from the running file's (its `[remote.mqtt]`), before it is read and written.
        public let completing: @MainActor (_ pushed: String, _ running: String?) -> String
        /// The file's text with its secrets replaced (`ConfigFile.redacted`), for a support
        /// bundle; nil: bundles carry no configuration.
        public let redact: (@Sendable (String) -> String?)?

        public init(path: String, completing: @escaping @MainActor (String, String?) -> String = { pushed, _ in pushed },
                    redact: (@Sendable (String) -> String?)? = nil,
                    read: @escaping @MainActor (String) throws -> Configuration) {
            self.path = path
            self.completing = completing
            self.redact = redact
            self.read = read
        }
    }
}
