#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

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
