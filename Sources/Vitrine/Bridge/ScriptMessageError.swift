#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Why a message was rejected. Its description is what the page's Promise rejects with.
public struct ScriptMessageError: Error, Equatable, CustomStringConvertible {
    public let message: String
    /// What a strategy's own Swift error was, `TypeName.caseName` (see `code(of:)`): the
    /// page's `Error` carries it as `code`. Nil for the bridge's own rejections.
    public let code: String?

    public init(_ message: String, code: String? = nil) {
        self.message = message
        self.code = code
    }

    public var description: String { message }

    /// The body is not of the shape the strategy expects.
    public static func invalidBody(_ name: String, expected: String) -> ScriptMessageError {
        ScriptMessageError("\(name): invalid message body, expected \(expected)")
    }
}
