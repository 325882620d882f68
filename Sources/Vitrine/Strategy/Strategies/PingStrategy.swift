#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `ping`: answers with exactly the body it received. For health checks and benchmarks.
public struct PingStrategy: ScriptMessageStrategy {
    public static let identifier = "ping"

    public init() {}

    @MainActor
    public func handle(_ message: ScriptMessage, context: ScriptMessageContext) async throws -> JSONValue {
        message.body
    }

    /// The body it got, untouched: same value, no JSON work.
    /// (An object's keys may come back in another order: WebKit carries an object in a
    /// reply as a dictionary.)
    @MainActor
    public func immediateReply(to message: borrowing ScriptMessageView, context: ScriptMessageContext) throws -> ScriptReply? {
        .messageBody
    }
}
