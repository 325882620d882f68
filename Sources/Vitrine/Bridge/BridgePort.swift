/// What a post on each of a frame's channel handlers carries, and the form of a reply there
/// (docs/bridge-protocol.md, "Channels"). The suffixes are protocol.json's.
public enum BridgePort: CaseIterable, Sendable {
    /// The channel's own name: a string payload (or the object forms, and batches).
    case text
    /// `.j`: JSON text, or `[text, string, …]` with its long strings beside it.
    case json
    /// `.x`: a byte buffer's base64 text.
    case bytes

    /// What the port's handler name adds to the channel's.
    public var suffix: String {
        switch self {
        case .text: ""
        case .json: BridgeProtocol.jsonPort
        case .bytes: BridgeProtocol.bytesPort
        }
    }

    /// The port whose handler name ends in `suffix`.
    public init?(suffix: String) {
        guard let port = Self.allCases.first(where: { $0.suffix == suffix }) else { return nil }
        self = port
    }
}
