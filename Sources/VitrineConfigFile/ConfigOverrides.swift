#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

/// What the command line says on top of a configuration file: every option set here wins
/// over the file, which wins over the preset. Unset leaves the file's value.
///
/// Its values are kept by flag, the option table's (`ConfigOptions`): the command line's
/// flags are generated from that table and read here by each option's own rule
/// (`init(commandLine:startURL:)`); the typed initializer is for programs that build one
/// themselves.
public struct ConfigOverrides: Sendable, Equatable {
    /// The page to open; also the default of a `home` handler without `url`.
    public var startURL: URL?
    /// The options' values by flag, checked by their types.
    var values: [String: OptionValue]

    /// The command line's values by flag, as written (`["width": ["800"]]`, a repeated flag's
    /// values in order; a toggle's `"true"` or `"false"`), each checked by its option's rule
    /// — the file's. Throws the first problem, worded for the command line.
    public init(commandLine: [String: [String]], startURL: URL? = nil) throws(ConfigCommandLineError) {
        self.startURL = startURL
        values = [:]
        for (flag, texts) in commandLine.sorted(by: { $0.key < $1.key }) where !texts.isEmpty {
            guard let type = ConfigOptions.option(flag: flag)?.type else {
                throw ConfigCommandLineError("--\(flag) is not an option of a configuration file")
            }
            guard texts.count == 1 || type.isOrigins else { throw ConfigCommandLineError("--\(flag) is given more than once") }
            var read: [OptionValue] = []
            for text in texts {
                if let problem = type.commandLineProblem(flag: flag, text: text) { throw ConfigCommandLineError(problem) }
                guard let value = type.commandLineValue(text) else { throw ConfigCommandLineError("--\(flag) cannot be given on the command line") }
                read.append(value)
            }
            // Only allow-lists take a flag more than once; they add up.
            values[flag] = read.count == 1 ? read[0] : .origins(read.flatMap { $0.origins ?? [] })
        }
    }

    public init(
        preset: Preset? = nil, startURL: URL? = nil, width: Int? = nil, height: Int? = nil, fullscreen: Bool? = nil,
        allowedOrigins: [Origin] = [], appDirectory: URL? = nil, userAgent: String? = nil, developerTools: Bool? = nil,
        sandbox: Bool? = nil, startupTrace: Bool? = nil,
        appID: String? = nil
    ) {
        self.startURL = startURL
        values = [:]
        values[ConfigOptions.preset.flag!] = preset.map { .string($0.commandLineName) }
        values["width"] = width.map(OptionValue.int)
        values["height"] = height.map(OptionValue.int)
        values["fullscreen"] = fullscreen.map(OptionValue.bool)
        values["allow-origin"] = allowedOrigins.isEmpty ? nil : .origins(allowedOrigins)
        values[ConfigOptions.appDirectory.flag!] = appDirectory.map(OptionValue.url)
        values["user-agent"] = userAgent.map(OptionValue.string)
        values["developer-tools"] = developerTools.map(OptionValue.bool)
        values["sandbox"] = sandbox.map(OptionValue.bool)
        values["startup-trace"] = startupTrace.map(OptionValue.bool)
        values["app-id"] = appID.map(OptionValue.string)
    }

    /// The preset to start from (`--preset`).
    public var preset: Preset? { values[ConfigOptions.preset.flag!]?.string.flatMap(Preset.init(name:)) }
    /// Served under `app://app/`; without a start URL (here or in the file) the window
    /// opens `app://app/index.html` (`--app-dir`).
    public var appDirectory: URL? { values[ConfigOptions.appDirectory.flag!]?.url }

    /// Without a configuration file: the preset refined by these options. The preset is
    /// `preset`, else `demo` (the bundled demo) when nothing says what to open, else `default`.
    public func configurator(resources: ResourceLocator = ResourceLocator()) -> Configurator {
        ConfigAssembly.configurator(overrides: self, resources: resources)
    }
}

extension OptionType {
    /// An allow-list: the only type a flag may give more than once.
    var isOrigins: Bool { if case .origins = self { true } else { false } }

    /// A command-line value already accepted by `commandLineProblem`, as the option's value;
    /// nil for types only a file can give.
    func commandLineValue(_ text: String) -> OptionValue? {
        switch self {
        case .bool: Bool(text).map(OptionValue.bool)
        case .string, .choice: .string(text)
        case .integer: Int(text).map(OptionValue.int)
        case .url: ConfigFileDecoder.parseURL(text).map(OptionValue.url)
        case .path: .url(URL(fileURLWithPath: text).standardizedFileURL)
        case .origins: Origin(serialized: text).map { .origins([$0]) }
        case .seconds, .timeOfDay, .timesOfDay, .weekdays, .monitor, .zoneLength, .originGrants, .strings: nil
        }
    }
}
