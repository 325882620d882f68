import Foundation
import Testing
import Vitrine
import VitrineConfigFile
import VitrineTestSupport

/// `[remote.mqtt]`: the file's keys onto the configuration, and check-config's positions
/// for bad values (display-free).
@Suite("MQTT: configuration")
struct MQTTConfigTests {
    private func problems(_ text: String, in folder: borrowing ConfigFolder) -> [String] {
        configurationErrors(text, named: "m.toml", in: folder)
    }

    private func file(in folder: borrowing ConfigFolder, _ name: String, _ text: String, mode: Int) throws {
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: try folder.write(name, text))
    }

    @Test func everyKeyMapsOntoTheConfiguration() throws {
        let folder = try ConfigFolder()
        try folder.write("ca.pem", "x")
        try folder.write("lobby.pem", "x")
        try folder.write("lobby.key", "x")
        try file(in: folder, "mqtt.pass", "hunter2\n", mode: 0o600)
        let configuration = try ConfigFile(text: """
            [remote.mqtt]
            broker = "mqtts://mqtt.corp:8884"
            device-id = "lobby-1"
            topic-prefix = "corp/screens"
            username = "lobby-1"
            password-file = "mqtt.pass"
            ca-certificates = ["ca.pem"]
            client-certificate = "lobby.pem"
            client-key = "lobby.key"
            home-assistant = true
            config-trial-timeout = 12
            """, path: folder.path + "/m.toml").configuration()
        let mqtt = try #require(configuration.mqtt)
        #expect(mqtt.broker == MQTTBroker("mqtts://mqtt.corp:8884"))
        #expect(mqtt.broker.usesTLS && mqtt.broker.port == 8884 && mqtt.broker.host == "mqtt.corp")
        #expect(mqtt.topics.state == "corp/screens/lobby-1/state")
        #expect(mqtt.username == "lobby-1" && mqtt.password == "hunter2")
        #expect(mqtt.caCertificates == [folder.path + "/ca.pem"])
        #expect(mqtt.clientCertificate == folder.path + "/lobby.pem" && mqtt.clientKey == folder.path + "/lobby.key")
        #expect(mqtt.homeAssistant && mqtt.configTrialTimeout == .seconds(12))
        #expect(!"\(mqtt)".contains("hunter2"))
        let summary = ConfigFile.summary(of: configuration, preset: .default).first { $0.0 == "mqtt" }?.1 ?? ""
        #expect(summary == "mqtts://mqtt.corp:8884 as corp/screens/lobby-1/, Home Assistant discovery")

        let plain = try ConfigFile(text: "[remote.mqtt]\nbroker = \"mqtt://127.0.0.1\"", path: "/tmp/p.toml").configuration().mqtt
        #expect(plain?.broker.port == 1883 && plain?.broker.usesTLS == false)
        #expect(plain?.deviceID == MQTTSettings.defaultDeviceID && plain?.topicPrefix == "vitrine")
        #expect(try ConfigFile(text: "", path: "/tmp/e.toml").configuration().mqtt == nil)
    }

    @Test func badValuesAreReportedAtTheirPositions() throws {
        let folder = try ConfigFolder()
        try folder.write("lobby.pem", "x")
        try file(in: folder, "open.pass", "x", mode: 0o644)
        #expect(problems("""
            [remote.mqtt]
            broker = "http://mqtt.corp"
            device-id = "lobby/1"
            topic-prefix = "a/#"
            username = "u"
            password-file = "open.pass"
            client-certificate = "lobby.pem"
            insecure = true
            """, in: folder) == [
            #"DIR/m.toml:2:10: remote.mqtt.broker must be a broker URL such as "mqtts://mqtt.corp:8883" (scheme mqtt or mqtts, no path), got "http://mqtt.corp""#,
            #"DIR/m.toml:3:13: remote.mqtt.device-id must be one topic level of letters, digits, '-', '_' or '.', got "lobby/1""#,
            #"DIR/m.toml:4:16: remote.mqtt.topic-prefix must be topic levels of letters, digits, '-', '_' or '.', separated by '/', got "a/#""#,
            "DIR/m.toml:6:17: remote.mqtt.password-file 'DIR/open.pass' may be read by others (mode 0644); it must be mode 0600 or stricter (chmod 600)",
            "DIR/m.toml:7:22: remote.mqtt.client-certificate needs client-key: the PEM file of its private key",
            "DIR/m.toml:8:1: unknown key 'remote.mqtt.insecure'; expected in [remote.mqtt]: broker, device-id, topic-prefix, username, password-file, ca-certificates, client-certificate, client-key, groups, home-assistant, config-trial-timeout",
        ])
        let missing = problems("[remote.mqtt]\ndevice-id = \"x\"\n", in: folder)
        #expect(missing.count == 1 && missing[0].hasPrefix("DIR/m.toml:1:1: remote.mqtt needs broker"))
    }
}
