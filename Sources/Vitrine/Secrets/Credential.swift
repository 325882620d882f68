/// A secret value from the configuration — a password file's contents, a token, a secret
/// URL's text — whose every textual form is `<redacted>`: interpolated, printed, dumped,
/// encoded to JSON. The value itself is `revealed`, read only where it is used (a request's
/// credentials, the broker's login).
public struct Credential: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable, Encodable {
    private let value: String

    public init(_ value: String) {
        self.value = value
    }

    /// The secret itself: for the request or login that needs it, never for text shown to anyone.
    public var revealed: String { value }

    public var description: String { Redaction.mark }
    public var debugDescription: String { Redaction.mark }
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(Redaction.mark)
    }
}

extension Credential: ExpressibleByStringLiteral {
    /// A literal credential: for tests and examples; a real one comes from a file.
    public init(stringLiteral value: String) {
        self.init(value)
    }
}
