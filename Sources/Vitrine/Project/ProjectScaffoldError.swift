#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Why `vitrine new` cannot make the project.
public struct ProjectScaffoldError: Error, Equatable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
