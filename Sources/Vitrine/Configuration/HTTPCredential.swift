#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// HTTP Basic/Digest credentials for one origin. The password never appears in a description.
public struct HTTPCredential: Sendable, Equatable, CustomStringConvertible {
    public var origin: Origin
    public var username: String
    public var password: Credential

    public init(origin: Origin, username: String, password: Credential) {
        self.origin = origin
        self.username = username
        self.password = password
    }

    public var description: String { "\(username) at \(origin)" }
}
