/// A rollout that cannot be planned, with the reason.
public struct RolloutError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
