import Vitrine

/// A navigation decision as the events log shows it.
public struct Decided: Equatable, CustomStringConvertible {
    public let handler: String
    public let policy: NavigationPolicy
    public init(_ handler: String, _ policy: NavigationPolicy) {
        self.handler = handler
        self.policy = policy
    }
    public var description: String { "\(handler) → \(policy)" }
}
