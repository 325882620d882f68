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

    /// Where each key and value is written, for problems found once the file is assembled.
    let map: TOMLSourceMap
    /// The problems reading found (document order); empty for a file made by a throwing
    /// initializer. Assembling and building add theirs to these (see `checked`).
    let problems: [ConfigFileError]

    /// Reads and checks the file at `path`.
    public init(path: String) throws(ConfigFileError) {
        let text = try Self.readText(path)
        try self.init(text: text, path: path)
    }

    /// Checks `text` as the contents of the file at `path`. Relative paths in it resolve
    /// against `path`'s folder.
    public init(text: String, path: String) throws(ConfigFileError) {
        try self.init(text: text, path: path, keepingProblems: true)
        try Self.throwing(problems)
    }

    /// Reads `text`; only a file that is not TOML at all throws. The other problems are kept
    /// in `problems`, and what they concern is left out of `settings`.
    init(text: String, path: String, keepingProblems: Bool) throws(ConfigFileError) {
        self.path = path
        if text.unicodeScalars.contains("\0") {
            throw ConfigFileError(file: path, line: nil, column: nil, message: "is not a text file (it contains NUL bytes)")
        }
        let decoder = ConfigFileDecoder(file: path, directory: Self.absoluteDirectory(of: path))
        settings = try decoder.decode(text)
        map = decoder.map
        problems = Self.inDocumentOrder(decoder.errors)
    }

    /// The file's preset (`default` when it names none).
    public var preset: Preset { settings.preset ?? .default }

    /// The preset's configurator refined by the file, then by `overrides`.
    public func configurator(
        overrides: ConfigOverrides = ConfigOverrides(), resources: ResourceLocator = ResourceLocator()
    ) throws(ConfigFileError) -> Configurator {
        var errors = problems
        let configurator = assembled(overrides: overrides, resources: resources, problems: &errors)
        try Self.throwing(errors)
        return configurator
    }

    /// The built configuration. A `ConfigurationError` from `Configurator.build()` is
    /// reported at the key it is about when the file writes it, else as `FILE: message`.
    public func configuration(
        overrides: ConfigOverrides = ConfigOverrides(), resources: ResourceLocator = ResourceLocator()
    ) throws(ConfigFileError) -> Configuration {
        var errors = problems
        let configuration = built(overrides: overrides, resources: resources, problems: &errors)
        try Self.throwing(errors)
        return configuration
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
    static func readText(_ path: String) throws(ConfigFileError) -> String {
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
