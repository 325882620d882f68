#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

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
