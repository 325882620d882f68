#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

public struct RemoteCommandError: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
