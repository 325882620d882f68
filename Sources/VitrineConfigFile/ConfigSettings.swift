#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

/// What a configuration file says, checked and typed, before it meets a preset and the
/// command line. Absent keys are nil (or empty): the preset's value stays.
struct ConfigSettings: Sendable {
    /// The values of the options `ConfigOptions` declares, by key (`window.width`).
    var values: [String: OptionValue] = [:]
    /// The sections present (`kiosk`): a section may refine by being there.
    var sections: Set<String> = []
    /// Where each kept entry of an array of tables is written, by the array's key: for
    /// problems found once the configuration is built (a playlist page the chain refuses).
    var entryPositions: [String: [(position: TOMLSourceMap.Position, path: String)]] = [:]

    /// Replaces the preset's chain when present.
    var handlers: [HandlerSetting]?

    /// Replaces the preset's strategies when present, in this order.
    var strategies: [String]?
    var strategyOrigins: [(identifier: String, origins: Set<Origin>)] = []

    var tabs: [Tab]?
    /// `[[sidecars]]`, checked (`SidecarDeclaration.declared`).
    var sidecars: [SidecarDeclaration]?
    var trustedCertificates: [TLSException] = []
    /// `[network]`'s lists (the proxy is a declared option).
    var network = NetworkSettings()
    /// `[remote.mqtt]`'s password (read from its file) and CA files (the rest are declared options).
    var mqttPassword: Credential?
    var mqttCACertificates: [String] = []
    /// `[remote.vnc]`'s password file (its path: the VNC server reads it).
    var vncPasswordFile: String?

    var preset: Preset? { values[ConfigOptions.preset.key]?.string.flatMap(Preset.init(name:)) }
    var startURL: URL? { values[ConfigOptions.startURL.key]?.url }
    var appDirectory: URL? { values[ConfigOptions.appDirectory.key]?.url }
    var downloadDirectory: URL? { values[ConfigOptions.downloadDirectory.key]?.url }
}

/// One `[[navigation.handlers]]` entry, read (see `ConfigHandlers`).
struct HandlerSetting: Sendable {
    /// The handler's `type`.
    var type: String
    /// Makes the handler once the start page and the download directory are known.
    var make: ConfigHandler.Make
    /// Where the entry starts, for problems found once the command line has been applied.
    var position: TOMLSourceMap.Position
    /// `navigation.handlers[N]`, for messages.
    var displayPath: String
}
