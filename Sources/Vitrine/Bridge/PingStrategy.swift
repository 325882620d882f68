#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `ping`: answers with exactly the body it received. For health checks and benchmarks.
public struct PingStrategy: ScriptMessageStrategy {
    public static let identifier = "ping"

    public nonisolated init() {}

    public func handle(_ message: ScriptMessage, context: ScriptMessageContext) async throws -> JSONValue {
        message.body
    }

    /// The body it got, untouched: same value, no JSON work. Exact: an object comes back
    /// as the page's own JSON text (members in order, every string as it was), bytes as
    /// the same bytes.
    public func immediateReply(to message: borrowing ScriptMessageView, context: ScriptMessageContext) throws -> ScriptReply? {
        .messageBody
    }
}
