#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `user`: answers who the desktop user is: `{"name", "login", "locale"}`.
public struct UserStrategy: ScriptMessageStrategy {
    public static let identifier = "user"

    public nonisolated init() {}

    public func handle(_ message: ScriptMessage, context: ScriptMessageContext) async throws -> JSONValue {
        [
            "name": .string(DesktopUser.fullName),
            "login": .string(DesktopUser.login),
            "locale": .string(Locale.current.identifier),
        ]
    }
}
