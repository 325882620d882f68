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

