#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A web origin: scheme, host and port, as browsers compare them.
///
/// Origins follow the URL standard: a `blob:` URL has its creator's origin
/// (`blob:http://host:port/uuid` → `http://host:port`), and `about:blank` / `about:srcdoc`
/// documents inherit their parent's (`init(document:inheriting:)`). Every other URL without
/// a host (`data:`, `javascript:`, a parentless `about:`) has an opaque origin, nil here,
/// which never equals any other: that is what makes allowlists fail closed for them.
public struct Origin: Sendable, Hashable, CustomStringConvertible {
    public let scheme: String
    public let host: String
    public let port: Int?

    /// The origin of `url`, or nil when the URL has an opaque origin.
    public init?(_ url: URL) {
        guard let parts = Self.parts(of: url) else { return nil }
        scheme = parts.scheme
        host = parts.host
        port = parts.port
    }

    /// The origin of a document loaded from `url` in a frame whose parent document has the
    /// origin `parent` (nil: a top-level document, or a parent with an opaque origin):
    /// `about:blank` and `about:srcdoc` inherit it, the rest is `init(_:)`.
    public init?(document url: URL, inheriting parent: Origin?) {
        let origin: Origin?
        if url.scheme?.lowercased() == "about" {
            let document = url.absoluteString.lowercased().prefix { $0 != "?" && $0 != "#" }
            origin = Self.inheritingDocuments.contains(document) ? parent : nil
        } else {
            origin = Origin(url)
        }
        guard let origin else { return nil }
        self = origin
    }

    /// Scheme, host and port of `url`'s origin; a `blob:` URL's are its inner URL's (one
    /// level only: `blob:blob:…` is opaque).
    private static func parts(of url: URL) -> (scheme: String, host: String, port: Int?)? {
        guard let scheme = url.scheme?.lowercased() else { return nil }
        if scheme == "blob" {
            guard let inner = URL(string: String(url.absoluteString.dropFirst("blob:".count))),
                  let innerScheme = inner.scheme?.lowercased(), !opaqueSchemes.contains(innerScheme) else { return nil }
            return parts(of: inner)
        }
        guard let host = url.host?.lowercased(), !host.isEmpty else { return nil }
        return (scheme, host, url.port.flatMap { $0 == defaultPort(for: scheme) ? nil : $0 })
    }

    /// The `about:` documents that take their parent's origin.
    static let inheritingDocuments: Set<Substring> = ["about:blank", "about:srcdoc"]
    /// Schemes whose URLs never have an origin of their own.
    static let opaqueSchemes: Set<String> = ["about", "blob", "data", "javascript"]

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
