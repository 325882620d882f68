#if canImport(Glibc)
import Glibc
#endif

public struct FileSystemError: Error, Sendable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
