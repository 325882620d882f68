#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `[remote.mqtt]`: the broker a fleet reaches this kiosk through, and who it is there.
public struct MQTTSettings: Sendable, Equatable {
    /// `mqtt://host[:port]` or `mqtts://host[:port]` (see `MQTTBroker`).
    public var broker: MQTTBroker
    /// This kiosk's name in topics (`PREFIX/ID/…`); default: the host name.
    public var deviceID: String
    public var topicPrefix = "vitrine"
    public var username: String?
    /// Read from `password-file` (mode 0600); never printed.
    public var password: Credential?
    /// PEM files of the certificate authorities that vouch for the broker; empty: the system's.
    public var caCertificates: [String] = []
    public var clientCertificate: String?
    public var clientKey: String?
    /// Fleet groups (`PREFIX/group/NAME/cmd/…`) whose commands the kiosk also takes.
    public var groups: [String] = []
    /// Publish Home Assistant's MQTT discovery messages.
    public var homeAssistant = false
    /// How long a pushed configuration's start page has to load before it is rolled back.
    public var configTrialTimeout: Duration = .seconds(30)

    public init(broker: MQTTBroker, deviceID: String = MQTTSettings.defaultDeviceID) {
        self.broker = broker
        self.deviceID = deviceID
    }

    /// The host name, made a valid topic level; "kiosk" when it has none.
    public static var defaultDeviceID: String {
        let name = ProcessInfo.processInfo.hostName.split(separator: ".").first.map(String.init) ?? ""
        let cleaned = String(name.map { MQTTTopics.isTopicLevelCharacter($0) ? $0 : "-" })
        return cleaned.isEmpty ? "kiosk" : cleaned
    }

    public var topics: MQTTTopics { MQTTTopics(prefix: topicPrefix, deviceID: deviceID, groups: groups) }
}

extension Configurator {
    /// `[remote.mqtt]`: changes the MQTT settings (made with `broker` when there are none).
    public func mqtt(broker: MQTTBroker, _ change: (inout MQTTSettings) -> Void = { _ in }) -> Configurator {
        var settings = preferences.mqtt ?? MQTTSettings(broker: broker)
        settings.broker = broker
        change(&settings)
        return preference(\.mqtt, settings)
    }

    /// Changes the MQTT settings, if a broker has been set.
    public func mqttIfPresent(_ change: (inout MQTTSettings) -> Void) -> Configurator {
        guard var settings = preferences.mqtt else { return self }
        change(&settings)
        return preference(\.mqtt, settings)
    }
}

extension MQTTSettings: CustomStringConvertible, CustomDebugStringConvertible {
    /// Everything but the password.
    public var description: String {
        "MQTTSettings(broker: \(broker), topics: \(topics.base)/, username: \(username ?? "none"), password: \(password == nil ? "none" : "(set)"), "
            + "CAs: \(caCertificates.count), client certificate: \(clientCertificate ?? "none"), home-assistant: \(homeAssistant), groups: \(groups))"
    }
    public var debugDescription: String { description }
}
