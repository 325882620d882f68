#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

/// What the command line says on top of a configuration file: every option set here wins
/// over the file, which wins over the preset. Nil (or empty) leaves the file's value.
public struct ConfigOverrides: Sendable, Equatable {
    public var preset: Preset?
    /// The page to open; also the default of a `home` handler without `url`.
    public var startURL: URL?
    public var width: Int?
    public var height: Int?
    public var fullscreen: Bool?
    /// Added to the file's `allowed-origins` (allow-lists accumulate).
    public var allowedOrigins: [Origin]
    /// Served under `app://app/`; without a start URL (here or in the file) the window
    /// opens `app://app/index.html`.
    public var appDirectory: URL?
    public var userAgent: String?
    public var developerTools: Bool?
    /// `--no-sandbox`: web processes without bubblewrap (`[security] sandbox`).
    public var sandbox: Bool?
    /// The app's reverse-DNS id (`--app-id`).
    public var appID: String?

    public init(
        preset: Preset? = nil, startURL: URL? = nil, width: Int? = nil, height: Int? = nil, fullscreen: Bool? = nil,
        allowedOrigins: [Origin] = [], appDirectory: URL? = nil, userAgent: String? = nil, developerTools: Bool? = nil,
        sandbox: Bool? = nil,
        appID: String? = nil
    ) {
        self.preset = preset
        self.startURL = startURL
        self.width = width
        self.height = height
        self.fullscreen = fullscreen
        self.allowedOrigins = allowedOrigins
        self.appDirectory = appDirectory
        self.userAgent = userAgent
        self.developerTools = developerTools
        self.sandbox = sandbox
        self.appID = appID
    }

    /// Without a configuration file: the preset refined by these options. The preset is
    /// `preset`, else `app` (the bundled demo) when nothing says what to open, else `default`.
    public func configurator(resources: ResourceLocator = ResourceLocator()) -> Configurator {
        ConfigAssembly.configurator(overrides: self, resources: resources)
    }

    /// The values of the options `ConfigOptions` applies, by flag. The preset, the start
    /// URL and the app folder are not among them: `ConfigAssembly` starts from those.
    var values: [String: OptionValue] {
        var values: [String: OptionValue] = [:]
        values["width"] = width.map(OptionValue.int)
        values["height"] = height.map(OptionValue.int)
        values["fullscreen"] = fullscreen.map(OptionValue.bool)
        values["allow-origin"] = allowedOrigins.isEmpty ? nil : .origins(allowedOrigins)
        values["user-agent"] = userAgent.map(OptionValue.string)
        values["developer-tools"] = developerTools.map(OptionValue.bool)
        values["sandbox"] = sandbox.map(OptionValue.bool)
        values["app-id"] = appID.map(OptionValue.string)
        return values
    }
}
