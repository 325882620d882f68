#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine
#if canImport(Glibc)
import Glibc
#endif

/// A Vitrine configuration file: TOML that maps one-to-one onto the `Configurator`.
///
/// Reading checks everything it can with a position: TOML syntax (the parser's own
/// message), then every key against the schema — unknown keys, types, ranges, URLs,
/// origins, handler types, strategy identifiers, permission kinds, files and folders.
/// Each problem is a `ConfigFileError` reading `FILE:LINE:COLUMN: message`.
///
/// ```swift
/// let configuration = try ConfigFile(path: "kiosk.toml").configuration()
/// // or, to refine further in code:
/// let configurator = try ConfigFile.load(path: "kiosk.toml").title("Lobby")
/// ```
///
/// The file starts from its `preset` (`ConfiguratorFactory.make(for:)`); what it sets
/// refines the preset; `ConfigOverrides` (the command line) refine the file.
public struct ConfigFile: Sendable {
    /// The file as named by the caller: messages use it as given.
    public let path: String
    let settings: ConfigSettings

    /// Reads and checks the file at `path`.
    public init(path: String) throws(ConfigFileError) {
        let text = try Self.readText(path)
        try self.init(text: text, path: path)
    }

    /// Checks `text` as the contents of the file at `path`. Relative paths in it resolve
    /// against `path`'s folder.
    public init(text: String, path: String) throws(ConfigFileError) {
        self.path = path
        if text.unicodeScalars.contains("\0") {
            throw ConfigFileError(file: path, line: nil, column: nil, message: "is not a text file (it contains NUL bytes)")
        }
        let decoder = ConfigFileDecoder(file: path, directory: Self.absoluteDirectory(of: path))
        settings = try decoder.decode(text)
        let errors = decoder.errors.enumerated().sorted { a, b in
            // Document order; problems at the same place keep the order they were found in.
            (a.element.line ?? 0, a.element.column ?? 0, a.offset) < (b.element.line ?? 0, b.element.column ?? 0, b.offset)
        }.map(\.element)
        if var first = errors.first {
            first.otherErrors = Array(errors.dropFirst())
            throw first
        }
    }

    /// The file's preset (`default` when it names none).
    public var preset: Preset { settings.preset ?? .default }

    /// The preset's configurator refined by the file, then by `overrides`.
    public func configurator(
        overrides: ConfigOverrides = ConfigOverrides(), resources: ResourceLocator = ResourceLocator()
    ) throws(ConfigFileError) -> Configurator {
        try ConfigAssembly.configurator(settings: settings, file: path, overrides: overrides, resources: resources)
    }

    /// The built configuration. A `ConfigurationError` from `Configurator.build()` is
    /// reported against the file, as `FILE: message`.
    public func configuration(
        overrides: ConfigOverrides = ConfigOverrides(), resources: ResourceLocator = ResourceLocator()
    ) throws(ConfigFileError) -> Configuration {
        let configurator = try configurator(overrides: overrides, resources: resources)
        let configuration: Configuration
        do {
            configuration = try configurator.build()
        } catch {
            throw ConfigFileError(file: path, line: nil, column: nil, message: "\(error)")
        }
        try checkPages(of: configuration)
        return configuration
    }

    /// A playlist page (the file's or a display's) or a display's page the built chain would refuse is reported at its
    /// entry (it would never show), and so is a display naming a monitor an earlier one took.
    private func checkPages(of configuration: Configuration) throws(ConfigFileError) {
        var errors: [ConfigFileError] = []
        let playlists = Array(zip(configuration.schedule.playlist, settings.entryPositions["schedule.playlist"] ?? []))
            + Array(zip(configuration.displays.flatMap(\.playlist), settings.entryPositions["displays.playlist"] ?? []))
            + Array(zip(configuration.zones.flatMap(\.playlist), settings.entryPositions["zones.playlist"] ?? []))
        for (entry, place) in playlists {
            if let refusal = Schedule.refusal(of: entry.url, in: configuration) {
                let key = entry.media == nil ? "url" : "video"
                errors.append(ConfigFileError(file: path, at: place.position, "\(place.path).\(key) \(entry.url.absoluteString) \(refusal)"))
            }
        }
        var taken: [MonitorSelector: String] = [:]
        for (display, place) in zip(configuration.displays, settings.entryPositions["displays"] ?? []) {
            if let earlier = taken[display.monitor] {
                errors.append(ConfigFileError(file: path, at: place.position,
                                              "\(place.path).monitor \(display.monitor) is already \(earlier)'s: one window per monitor"))
            }
            taken[display.monitor] = taken[display.monitor] ?? place.path
            if let url = display.startURL, let refusal = Schedule.refusal(of: url, in: configuration) {
                errors.append(ConfigFileError(file: path, at: place.position, "\(place.path).start-url \(url.absoluteString) \(refusal)"))
            }
        }
        let zonePlaces = settings.entryPositions["zones"] ?? []
        if !configuration.zones.isEmpty, let place = settings.entryPositions["schedule.playlist"]?.first {
            errors.append(ConfigFileError(file: path, at: place.position,
                                          "\(place.path): with [[zones]], each zone has its own playlist ([[zones.playlist]])"))
        }
        if !configuration.tabs.isEmpty, let place = zonePlaces.first {
            errors.append(ConfigFileError(file: path, at: place.position, "\(place.path): zones and tabs do not go together; choose one"))
        }
        let size = configuration.windowSize
        for problem in ZoneLayout.problems(of: configuration.zones, width: size.width, height: size.height)
        where zonePlaces.indices.contains(problem.zone) {
            let place = zonePlaces[problem.zone]
            errors.append(ConfigFileError(file: path, at: place.position, "\(place.path): \(problem.message)"))
        }
        for (zone, place) in zip(configuration.zones, zonePlaces) {
            if let url = zone.url, let refusal = Schedule.refusal(of: url, in: configuration) {
                errors.append(ConfigFileError(file: path, at: place.position, "\(place.path).url \(url.absoluteString) \(refusal)"))
            }
        }
        // In the file's order, as the decoder's errors are.
        errors.sort { ($0.line ?? 0, $0.column ?? 0) < ($1.line ?? 0, $1.column ?? 0) }
        if var first = errors.first {
            first.otherErrors = Array(errors.dropFirst())
            throw first
        }
    }

    // MARK: Conveniences

    /// Reads the file at `path` and returns the configurator it describes.
    public static func load(path: String, overrides: ConfigOverrides = ConfigOverrides()) throws(ConfigFileError) -> Configurator {
        try ConfigFile(path: path).configurator(overrides: overrides)
    }

    /// Checks `text` as the file at `path` and returns the configurator it describes.
    public static func parse(text: String, path: String, overrides: ConfigOverrides = ConfigOverrides()) throws(ConfigFileError) -> Configurator {
        try ConfigFile(text: text, path: path).configurator(overrides: overrides)
    }

    // MARK: Files

    /// The whole file as UTF-8 text, or an error naming the system's reason.
    private static func readText(_ path: String) throws(ConfigFileError) -> String {
        func failure(_ message: String) -> ConfigFileError {
            ConfigFileError(file: path, line: nil, column: nil, message: message)
        }
        if FileSystem.isDirectory(path) { throw failure("is a folder, not a configuration file") }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure("cannot be read: \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure("cannot be read: \(String(cString: strerror(errno)))")
            }
            if count == 0 { break }
            bytes.append(contentsOf: buffer[0..<count])
            if bytes.count > 4 * 1024 * 1024 { throw failure("is too large for a configuration file (over 4 MiB)") }
        }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw failure("is not UTF-8 text") }
        return text
    }

    /// The absolute folder of `path` (relative paths are relative to the working directory).
    static func absoluteDirectory(of path: String) -> String {
        var absolute = path
        if !path.hasPrefix("/") {
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let cwd = getcwd(&buffer, buffer.count) == nil
                ? "." : String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            absolute = cwd + "/" + path
        }
        return URL(fileURLWithPath: absolute).standardizedFileURL.deletingLastPathComponent().path
    }
}
