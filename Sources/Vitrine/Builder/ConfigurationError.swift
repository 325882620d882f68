#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An option that cannot make a working configuration.
public struct ConfigurationError: Error, Equatable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
