#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Enterprise networks (`[network]`): a proxy, extra trust anchors, client certificates
/// and HTTP credentials answered without a prompt.
public struct NetworkSettings: Sendable, Equatable {
    /// How the web context reaches the network. Nil: WebKit's default (the desktop's).
    public var proxy: NetworkProxy?
    /// Hosts the proxy is not used for (`localhost`, `*.corp`, `10.0.0.0/8`).
    public var noProxy: [String] = []
    /// PEM files of extra certificate authorities, trusted for every host besides the system's.
    public var caCertificates: [String] = []
    public var clientCertificates: [ClientCertificate] = []
    public var credentials: [HTTPCredential] = []

    public init() {}

    /// What to do with a server's request for credentials or a client certificate.
    /// A retry means the configured answer was refused: cancelled, never looped.
    public func answer(to challenge: AuthenticationChallenge) -> AuthenticationAnswer {
        if challenge.isClientCertificate {
            guard let certificate = clientCertificates.first(where: { $0.host == challenge.host.lowercased() }) else { return .unconfigured }
            return challenge.isRetry ? .cancel("client certificate refused") : .clientCertificate(certificate)
        }
        guard let origin = challenge.isForProxy ? proxyOrigin : challenge.origin,
              let credential = credentials.first(where: { $0.origin == origin }) else { return .unconfigured }
        return challenge.isRetry ? .cancel("credentials refused") : .credential(credential)
    }

    /// The configured proxy's origin: a `credentials` entry for it answers the proxy's 407.
    /// (WebKit names the proxy's host in the challenge but not its scheme or port.)
    var proxyOrigin: Origin? {
        guard case .custom(let url)? = proxy else { return nil }
        return Origin(url)
    }
}

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

/// A client certificate (mutual TLS) presented to one host.
public struct ClientCertificate: Sendable, Equatable {
    public var host: String
    public var certificatePath: String
    public var keyPath: String

    public init(host: String, certificatePath: String, keyPath: String) {
        self.host = host.lowercased()
        self.certificatePath = certificatePath
        self.keyPath = keyPath
    }
}

/// HTTP Basic/Digest credentials for one origin. The password never appears in a description.
public struct HTTPCredential: Sendable, Equatable, CustomStringConvertible {
    public var origin: Origin
    public var username: String
    public var password: String

    public init(origin: Origin, username: String, password: String) {
        self.origin = origin
        self.username = username
        self.password = password
    }

    public var description: String { "\(username) at \(origin)" }
}

/// A server's request, as WebKit reports it.
public struct AuthenticationChallenge: Sendable, Equatable {
    public var origin: Origin?
    public var host: String
    public var isClientCertificate: Bool
    public var isRetry: Bool
    /// The proxy asks (407), not the server.
    public var isForProxy: Bool

    public init(origin: Origin?, host: String, isClientCertificate: Bool, isRetry: Bool, isForProxy: Bool = false) {
        self.origin = origin
        self.host = host
        self.isClientCertificate = isClientCertificate
        self.isRetry = isRetry
        self.isForProxy = isForProxy
    }
}

public enum AuthenticationAnswer: Sendable, Equatable {
    case credential(HTTPCredential)
    case clientCertificate(ClientCertificate)
    /// A configured answer was refused: cancel (the page gets an error).
    case cancel(String)
    /// Nothing configured: a prompt where native dialogs may open, else cancelled.
    case unconfigured
}
