#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine
internal import TOMLKit

/// `[remote.mqtt]`'s password file and CA list, and the checks that need the whole table
/// (a broker is required; a client certificate comes with its key).
extension ConfigFileDecoder {
    func decodeRemoteMQTT(_ key: String, in mqtt: TOMLTable, at here: Path, into settings: inout ConfigSettings) {
        switch key {
        case "password-file":
            if mqtt["password-file"] != nil { settings.mqttPassword = passwordFile(mqtt, at: here) }
        default:  // ca-certificates
            settings.mqttCACertificates += existingFiles(mqtt, key, at: here)
        }
    }

    /// `[remote.vnc] password-file`: checked as every password file is (mode 0600), kept
    /// as a path for the VNC server to read.
    func vncPasswordFile(_ vnc: TOMLTable, at here: Path) -> String? {
        guard vnc["password-file"] != nil, let file = path(vnc, "password-file", at: here, mustBe: .file)?.path,
              password(in: file, at: here) != nil else { return nil }
        return file
    }

    /// The checks of a section as a whole, once its keys are read. A missing broker is
    /// reported only when the keys that are there are sound (one typo, one message).
    func checkSection(_ key: String, _ table: TOMLTable, at path: Path, keysAreSound: Bool) {
        if key == "remote.vnc" { return checkRemoteView(table, at: path) }
        guard key == "remote.mqtt" else { return }
        if table["broker"] == nil, keysAreSound {
            missing("broker", in: path, expected: #"the broker's address, such as "mqtts://mqtt.corp:8883""#)
        }
        let hasCertificate = table["client-certificate"] != nil, hasKey = table["client-key"] != nil
        if hasCertificate && !hasKey {
            report(at: map.position(ofValue: path + [.key("client-certificate")]),
                   "\(display(path + [.key("client-certificate")])) needs client-key: the PEM file of its private key")
        } else if hasKey && !hasCertificate {
            report(at: map.position(ofValue: path + [.key("client-key")]),
                   "\(display(path + [.key("client-key")])) needs client-certificate: the PEM file of the certificate it goes with")
        }
        if table["username"] == nil, table["password-file"] != nil {
            report(at: map.position(ofValue: path + [.key("password-file")]),
                   "\(display(path + [.key("password-file")])) needs username: the user name the password goes with")
        }
    }

    /// A view with no password only on loopback (`RemoteViewSettings.refusal`).
    private func checkRemoteView(_ table: TOMLTable, at path: Path) {
        guard let text = table["listen"]?.string, let (host, port) = RemoteViewSettings.parseListen(text) else { return }
        let settings = RemoteViewSettings(host: host, port: port, passwordFile: table["password-file"] == nil ? nil : "")
        if let refusal = settings.refusal {
            report(at: map.position(ofValue: path + [.key("listen")]), refusal)
        }
    }
}
