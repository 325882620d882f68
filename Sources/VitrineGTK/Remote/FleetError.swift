/// What `vitrine fleet` reports when the broker cannot be used.
public struct FleetError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
