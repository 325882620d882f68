#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

public enum AuthenticationAnswer: Sendable, Equatable {
    case credential(HTTPCredential)
    case clientCertificate(ClientCertificate)
    /// A configured answer was refused: cancel (the page gets an error).
    case cancel(String)
    /// Nothing configured: a prompt where native dialogs may open, else cancelled.
    case unconfigured
}
