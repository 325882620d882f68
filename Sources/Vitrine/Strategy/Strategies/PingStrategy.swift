#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `ping`: answers with exactly the body it received. For health checks and benchmarks.
public struct PingStrategy: ScriptMessageStrategy {
    public static let identifier = "ping"

    public init() {}

    public func handle(_ message: ScriptMessage, context: ScriptMessageContext) async throws -> JSONValue {
        message.body
    }

    /// The text it got, unparsed: same value, same key order, no JSON work.
    public func replyJSON(to message: ScriptMessage, context: ScriptMessageContext) async throws -> String {
        message.bodyJSON
    }
}
