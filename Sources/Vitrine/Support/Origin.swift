#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A web origin: scheme, host and port, as browsers compare them.
///
/// Schemes without a host (`data:`, `about:`, `javascript:`) have an opaque origin that
/// never equals any other, which is what makes allowlists fail closed for them.
public struct Origin: Sendable, Hashable, CustomStringConvertible {
    public let scheme: String
    public let host: String
    public let port: Int?

    /// The origin of `url`, or nil when the URL has an opaque origin.
    public init?(_ url: URL) {
        guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased(), !host.isEmpty else {
            return nil
        }
        self.scheme = scheme
        self.host = host
        self.port = url.port.flatMap { $0 == Origin.defaultPort(for: scheme) ? nil : $0 }
    }

    /// Parses `scheme://host[:port]` (a trailing path is ignored).
    public init?(string: String) {
        guard let url = URL(string: string) else { return nil }
        self.init(url)
    }

    public var description: String {
        port.map { "\(scheme)://\(host):\($0)" } ?? "\(scheme)://\(host)"
    }

    private static func defaultPort(for scheme: String) -> Int? {
        switch scheme {
        case "http", "ws": return 80
        case "https", "wss": return 443
        default: return nil
        }
    }
}
