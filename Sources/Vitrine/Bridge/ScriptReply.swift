#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A strategy's answer on its way back to the page.
public enum ScriptReply: Sendable, Equatable {
    /// This JSON text: the page's Promise resolves with its value, object members in the
    /// text's order.
    case json(String)
    /// These bytes: the page's Promise resolves with a `Uint8Array`.
    case bytes([UInt8])
    /// The message's own body, exactly as the page posted it: the bridge hands back the
    /// value it received without converting it (`ping`).
    case messageBody
}
