#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

/// `[network]` (proxy, trust anchors, client certificates, credentials) and `[remote]`'s
/// upload and MQTT broker.
extension ConfigOptions {
    static let networkOptions: [ConfigOption] = [
        ConfigOption.section("network", "enterprise networks: a proxy, trust anchors, client certificates, credentials")
            .summarized(as: "network") { configuration, _ in networkSummary(configuration.network) },
        ConfigOption.string("network.proxy", .proxy, #"the proxy for every request: "system" (the desktop's) or a URL such as http://proxy.corp:3128"#) {
            configurator, text in configurator.network { $0.proxy = NetworkProxy(text) }
        }.example(#""http://proxy.corp:3128""#).printable { $0.network.proxy?.description },
        ConfigOption.structured("network.no-proxy", #"hosts reached without the proxy, such as "localhost" or "*.corp""#)
            .written(type: "an array of host names or patterns such as \"*.corp\"", example: """
                [network]
                no-proxy = ["localhost", "*.corp"]
                """).printable { Printed.lines($0.network.noProxy) },
        ConfigOption.structured("network.ca-certificates", "PEM files of extra certificate authorities, trusted for every host")
            .written(type: "an array of existing files (PEM, relative to the configuration file)", example: """
                [network]
                ca-certificates = ["/etc/vitrine/corp-ca.pem"]
                """).printable { Printed.lines($0.network.caCertificates) },
        ConfigOption.structured("network.client-certificate", "a client certificate (mutual TLS) for a host: host, certificate, key")
            .written(type: "an array of tables: host (a host name), certificate and key (existing PEM files)", example: """
                [[network.client-certificate]]
                host = "intranet.corp"
                certificate = "/etc/vitrine/kiosk-client.pem"
                key = "/etc/vitrine/kiosk-client.key"
                """).printable { Printed.lines($0.network.clientCertificates.map { "\($0.host) \($0.certificatePath) \($0.keyPath)" }) },
        ConfigOption.structured("network.credentials", "HTTP Basic/Digest credentials for an origin: origin, username, password-file (mode 0600)")
            .secret(fields: ["password-file"])
            .written(type: "an array of tables: origin, username and password-file (an existing file of mode 0600)", example: """
                [[network.credentials]]
                origin = "https://intranet.corp"
                username = "kiosk"
                password-file = "/etc/vitrine/intranet.password"
                """).printable { Printed.lines($0.network.credentials.map(\.description)) },

        .section("remote", "remote control beyond the session bus"),
        // The URL itself is the credential (a pre-signed upload): only whether it is set.
        ConfigOption.string("remote.support-upload", .supportUpload, "where cmd/support PUTs its bundle (default: published on the support topic)") {
            configurator, text in ConfigFileDecoder.parseURL(text).map { configurator.preference(\.supportUpload, SecretURL($0)) } ?? configurator
        }.example(#""https://support.corp/upload/lobby-1.tar.gz""#).secret().localOnly().printable { $0.supportUpload?.description },
        ConfigOption.section("remote.mqtt", "a fleet's MQTT broker: state, events and commands under PREFIX/ID/")
            .summarized(as: "mqtt") { configuration, _ in
                configuration.mqtt.map { "\($0.broker) as \($0.topics.base)/" + ($0.groups.isEmpty ? "" : ", groups \($0.groups.joined(separator: ", "))")
                    + ($0.homeAssistant ? ", Home Assistant discovery" : "") }
            }.enabled(by: "remote.mqtt.broker").printable { Printed.bool($0.mqtt != nil) },
        ConfigOption.string("remote.mqtt.broker", .mqttBroker, "mqtt://host[:port] or mqtts://host[:port] (TLS; the broker's certificate is always verified)") {
            configurator, text in MQTTBroker(text).map { configurator.mqtt(broker: $0) } ?? configurator
        }.example(#""mqtts://mqtt.corp:8883""#).printable { $0.mqtt?.broker.description },
        ConfigOption.string("remote.mqtt.device-id", .topicLevel(levels: false), "this kiosk's name in topics (default: the host name)") {
            configurator, id in configurator.mqttIfPresent { $0.deviceID = id }
        }.example(#""lobby-1""#).printable { $0.mqtt?.deviceID },
        ConfigOption.string("remote.mqtt.topic-prefix", .topicLevel(levels: true), #"the topics' first levels (default "vitrine")"#) {
            configurator, prefix in configurator.mqttIfPresent { $0.topicPrefix = prefix }
        }.example(#""corp/screens""#).printable { $0.mqtt?.topicPrefix },
        ConfigOption.string("remote.mqtt.username", .nonEmptyText, "the user name given to the broker") {
            configurator, name in configurator.mqttIfPresent { $0.username = name }
        }.example(#""kiosk""#).printable { $0.mqtt?.username },
        // The configuration keeps the password, not its file: only whether there is one.
        ConfigOption.structured("remote.mqtt.password-file", "a file (mode 0600) holding the broker password").secret()
            .written(type: "an existing file of mode 0600 (relative to the configuration file), with username", example: """
                [remote.mqtt]
                broker = "mqtts://mqtt.corp:8883"
                username = "kiosk"
                password-file = "/etc/vitrine/mqtt.password"
                """).printable { $0.mqtt?.password.map { _ in Redaction.mark } },
        ConfigOption.structured("remote.mqtt.ca-certificates", "PEM files of the authorities that vouch for the broker (default: the system's)")
            .written(type: "an array of existing files (PEM, relative to the configuration file)", example: """
                [remote.mqtt]
                ca-certificates = ["/etc/vitrine/mqtt-ca.pem"]
                """).printable { $0.mqtt.map { Printed.lines($0.caCertificates) } },
        ConfigOption.url("remote.mqtt.client-certificate", .path(.file), "a client certificate (PEM) for the broker, with client-key") {
            configurator, url in configurator.mqttIfPresent { $0.clientCertificate = url.path }
        }.printable { $0.mqtt?.clientCertificate },
        ConfigOption.url("remote.mqtt.client-key", .path(.file), "the client certificate's private key (PEM)") {
            configurator, url in configurator.mqttIfPresent { $0.clientKey = url.path }
        }.example(#""/etc/vitrine/kiosk.key""#).printable { $0.mqtt?.clientKey },
        ConfigOption.strings("remote.mqtt.groups", .topicLevels, "fleet groups whose commands (PREFIX/group/NAME/cmd/…) the kiosk takes as its own") {
            configurator, groups in configurator.mqttIfPresent { $0.groups = groups }
        }.example(#"["lobby", "floor-2"]"#).printable { $0.mqtt.map { Printed.lines($0.groups) } },
        ConfigOption.bool("remote.mqtt.home-assistant", "publish Home Assistant MQTT discovery messages") {
            configurator, on in configurator.mqttIfPresent { $0.homeAssistant = on }
        }.printable { $0.mqtt.map { Printed.bool($0.homeAssistant) } },
        ConfigOption.seconds("remote.mqtt.config-trial-timeout", allowsZero: false, "seconds a pushed configuration's start page has to load (with a 2xx/3xx status) before it is rolled back") {
            configurator, timeout in configurator.mqttIfPresent { $0.configTrialTimeout = timeout }
        }.printable { $0.mqtt.map { Printed.seconds($0.configTrialTimeout) } },
    ]

    private static func networkSummary(_ network: NetworkSettings) -> String? {
        var parts: [String] = []
        switch network.proxy {
        case .system?: parts.append("the desktop's proxy")
        case .custom(let url)?: parts.append("proxy \(Redaction.url(url.absoluteString))")
        case nil: break
        }
        if !network.caCertificates.isEmpty { parts.append("\(network.caCertificates.count) extra CA file(s)") }
        if !network.clientCertificates.isEmpty { parts.append("client certificates for \(network.clientCertificates.map(\.host).joined(separator: ", "))") }
        if !network.credentials.isEmpty { parts.append("credentials for \(network.credentials.map(\.description).joined(separator: ", "))") }
        return parts.isEmpty ? nil : parts.joined(separator: "; ")
    }

}
