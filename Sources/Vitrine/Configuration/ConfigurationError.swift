#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An option that cannot make a working configuration.
public struct ConfigurationError: Error, Equatable, CustomStringConvertible {
    public let message: String
    /// The configuration file's key the problem is about (`printing.output-uri`), so that a
    /// file can point at where it is written; nil when no one key is at fault.
    public let key: String?
    public init(_ message: String, key: String? = nil) {
        self.message = message
        self.key = key
    }
    public var description: String { message }
}
