#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A certificate trusted for one host despite a TLS error (a kiosk's own server with a
/// private certificate). Only this exact certificate, only for this host.
public struct TLSException: Sendable, Equatable {
    public var host: String
    public var certificatePath: String

    public init(host: String, certificatePath: String) {
        self.host = host
        self.certificatePath = certificatePath
    }
}
