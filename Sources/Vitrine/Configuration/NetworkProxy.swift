#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `"system"`, or a proxy URL.
public enum NetworkProxy: Sendable, Equatable {
    case system
    case custom(URL)

    public static let schemes = ["http", "https", "socks", "socks4", "socks4a", "socks5"]

    /// `"system"` or `scheme://host[:port]` with one of `schemes`; nil otherwise.
    public init?(_ text: String) {
        if text == "system" { self = .system; return }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), Self.schemes.contains(scheme),
              let host = url.host, !host.isEmpty else { return nil }
        self = .custom(url)
    }
}

extension NetworkProxy: CustomStringConvertible, CustomDebugStringConvertible {
    /// `system`, or the proxy's URL with its password redacted (`Redaction.url`).
    public var description: String {
        switch self {
        case .system: "system"
        case .custom(let url): Redaction.url(url.absoluteString)
        }
    }
    public var debugDescription: String { description }
}
