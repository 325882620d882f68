#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The chain's verdict and who gave it.
public struct NavigationDecision: Sendable, Equatable {
    public let policy: NavigationPolicy
    /// The deciding handler's name, or `end-of-chain` / `timeout`.
    public let handler: String
    /// For a timeout, the handler that ran out of time.
    public let timedOutHandler: String?

    public init(policy: NavigationPolicy, handler: String, timedOutHandler: String? = nil) {
        self.policy = policy
        self.handler = handler
        self.timedOutHandler = timedOutHandler
    }
}
