#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

/// Every problem of a file in one run: what reading found (types, files, modes), what
/// assembling found (a handler one key needs from another), what the build refuses (a
/// value's meaning, at its key) and what the built configuration shows (its pages). Each
/// stage goes on past the earlier ones' problems, with what they concern left out, so a
/// fix never uncovers a problem that was there all along.
extension ConfigFile {
    /// Reads the file at `path` and builds it, throwing every problem it has at once.
    public static func checked(
        path: String, overrides: ConfigOverrides = ConfigOverrides(), resources: ResourceLocator = ResourceLocator()
    ) throws(ConfigFileError) -> (file: ConfigFile, configuration: Configuration) {
        try checked(text: readText(path), path: path, overrides: overrides, resources: resources)
    }

    /// `checked(path:)` for `text` as the contents of the file at `path`.
    public static func checked(
        text: String, path: String, overrides: ConfigOverrides = ConfigOverrides(), resources: ResourceLocator = ResourceLocator()
    ) throws(ConfigFileError) -> (file: ConfigFile, configuration: Configuration) {
        let file = try ConfigFile(text: text, path: path, keepingProblems: true)
        return (file, try file.configuration(overrides: overrides, resources: resources))
    }

    func assembled(overrides: ConfigOverrides, resources: ResourceLocator, problems: inout [ConfigFileError]) -> Configurator {
        let startPageWritten = map.position(ofWritten: [.key(ConfigOptions.startURL.key)]) != nil
            || map.position(ofWritten: [.key(ConfigOptions.appDirectory.key)]) != nil
        return ConfigAssembly.configurator(settings: settings, file: path, overrides: overrides, resources: resources,
                                           startPageWritten: startPageWritten, problems: &problems)
    }

    func built(overrides: ConfigOverrides, resources: ResourceLocator, problems: inout [ConfigFileError]) -> Configuration {
        let configurator = assembled(overrides: overrides, resources: resources, problems: &problems)
        problems += configurator.problems.map { placed($0, overrides: overrides) }
        let configuration = configurator.buildUnchecked()
        problems += pageProblems(of: configuration)
        return configuration
    }

    /// A build's problem at the key it is about, when the file writes that key and the
    /// command line does not replace it (else the file is not where the value came from).
    private func placed(_ error: ConfigurationError, overrides: ConfigOverrides) -> ConfigFileError {
        let unplaced = ConfigFileError(file: path, line: nil, column: nil, message: error.message)
        guard let key = error.key else { return unplaced }
        let fromCommandLine = key == ConfigOptions.startURL.key
            ? overrides.startURL != nil
            : ConfigOptions.option(key)?.flag.map { overrides.values[$0] != nil } ?? false
        let keyPath = key.split(separator: ".").map { TOMLSourceMap.Component.key(String($0)) }
        guard !fromCommandLine, let position = map.position(ofWritten: keyPath) else { return unplaced }
        return ConfigFileError(file: path, at: position, error.message)
    }

    /// A playlist page (the file's or a display's) or a display's page the built chain would refuse is reported at its
    /// entry (it would never show), and so is a display naming a monitor an earlier one took.
    private func pageProblems(of configuration: Configuration) -> [ConfigFileError] {
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
        return errors
    }

    /// Document order; problems without a position first, and problems at the same place
    /// in the order they were found.
    static func inDocumentOrder(_ errors: [ConfigFileError]) -> [ConfigFileError] {
        errors.enumerated().sorted { a, b in
            (a.element.line ?? 0, a.element.column ?? 0, a.offset) < (b.element.line ?? 0, b.element.column ?? 0, b.offset)
        }.map(\.element)
    }

    /// Throws the first of `errors` (in document order) carrying the others, if any.
    static func throwing(_ errors: [ConfigFileError]) throws(ConfigFileError) {
        let errors = inDocumentOrder(errors)
        if var first = errors.first {
            first.otherErrors = Array(errors.dropFirst())
            throw first
        }
    }
}
