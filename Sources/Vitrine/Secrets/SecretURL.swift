#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A URL that is itself a credential — a pre-signed upload URL, one with a token in its
/// path — so that, like `Credential`, every textual form of it is `<redacted>`. The URL
/// is `revealed` only to the request that uses it.
public struct SecretURL: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    private let url: URL

    public init(_ url: URL) {
        self.url = url
    }

    /// The URL itself: for the request, never for text shown to anyone.
    public var revealed: URL { url }

    /// The URL as a credential, for `SecretMask`.
    public var credential: Credential { Credential(url.absoluteString) }

    public var description: String { Redaction.mark }
    public var debugDescription: String { Redaction.mark }
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}
