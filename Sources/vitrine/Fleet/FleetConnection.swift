import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine
import VitrineConfigFile
import VitrineGTK

/// How `vitrine fleet` reaches the broker: a configuration file's `[remote.mqtt]` (read and
/// checked as a kiosk's: password file 0600, CAs, client certificate) or a bare `--broker`.
struct FleetConnection: ParsableArguments {
    @Option(help: ArgumentHelp("A configuration file whose [remote.mqtt] names the broker, credentials, CAs and topic prefix.",
                               valueName: "file"))
    var config: String?

    @Option(help: ArgumentHelp("The broker (mqtt://host[:port] or mqtts://host[:port]); overrides the file's.", valueName: "url"))
    var broker: String?

    @Option(name: .customLong("topic-prefix"), help: ArgumentHelp("The kiosks' topic prefix (default: the file's, else vitrine).",
                                                                  valueName: "prefix"))
    var topicPrefix: String?

    func validate() throws {
        if config == nil, broker == nil { throw ValidationError("name the broker: --config FILE (its [remote.mqtt]) or --broker URL") }
        if let broker, MQTTBroker(broker) == nil { throw ValidationError("--broker must be mqtt://host[:port] or mqtts://host[:port], got '\(broker)'") }
        if let topicPrefix, !MQTTTopics.isValid(topicPrefix, allowingLevels: true) {
            throw ValidationError("--topic-prefix must be topic levels of letters, digits, '-', '_' or '.', separated by '/', got '\(topicPrefix)'")
        }
    }

    /// The settings to connect with, connected.
    func connect() throws -> FleetClient {
        var settings: MQTTSettings
        if let config {
            do {
                guard let mqtt = try ConfigFile(path: config).configuration().mqtt else {
                    throw RuntimeFailure("\(config) has no [remote.mqtt] section naming the broker")
                }
                settings = mqtt
            } catch let error as ConfigFileError {
                throw RuntimeFailure(error.allErrors.map(\.description).joined(separator: "\n"))
            }
        } else {
            settings = MQTTSettings(broker: MQTTBroker(broker ?? "")!, deviceID: "fleet")
        }
        if let broker, let url = MQTTBroker(broker) { settings.broker = url }
        if let topicPrefix { settings.topicPrefix = topicPrefix }
        do {
            let client = try FleetClient(settings: settings)
            try client.connect(timeout: .seconds(10))
            return client
        } catch let error as FleetError {
            throw RuntimeFailure(error.description)
        }
    }
}

/// A group name as the kiosks' `groups` have it: one topic level, never a wildcard.
func checkGroup(_ group: String) throws {
    guard MQTTTopics.isValid(group, allowingLevels: false) else {
        throw ValidationError("--group must be one topic level of letters, digits, '-', '_' or '.' (no '+', '#' or '/'), got '\(group)'")
    }
}

extension FleetClient {
    /// The online kiosks of `group`, by id; throws when it has none.
    func members(of group: String) throws -> (online: [String], offline: [String]) {
        let members = FleetKiosk.members(of: group, in: try kiosks(timeout: .seconds(10)))
        guard !members.isEmpty else { throw RuntimeFailure("no kiosk on the broker is in group '\(group)'") }
        return (members.filter(\.online).map(\.id), members.filter { !$0.online }.map(\.id))
    }
}
