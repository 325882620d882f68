#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A broker address: `mqtt://` (plain, port 1883) or `mqtts://` (TLS, port 8883; the
/// server's certificate is always verified).
public struct MQTTBroker: Sendable, Equatable, CustomStringConvertible {
    public static let schemes = ["mqtt", "mqtts"]
    public var host: String
    public var port: Int
    public var usesTLS: Bool

    public init?(_ text: String) {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), Self.schemes.contains(scheme),
              let host = url.host, !host.isEmpty, url.path.isEmpty || url.path == "/", url.query == nil,
              url.user == nil
        else { return nil }
        usesTLS = scheme == "mqtts"
        self.host = host
        port = url.port ?? (usesTLS ? 8883 : 1883)
        guard (1...65535).contains(port) else { return nil }
    }

    public var description: String { "\(usesTLS ? "mqtts" : "mqtt")://\(host):\(port)" }
}
