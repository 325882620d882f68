import Foundation

/// `user`: answers who the desktop user is: `{"name", "login", "locale"}`.
public struct UserStrategy: ScriptMessageStrategy {
    public static let identifier = "user"

    public init() {}

    public func handle(_ message: ScriptMessage, context: ScriptMessageContext) async throws -> JSONValue {
        let login = NSUserName()
        let fullName = NSFullUserName()
        return [
            "name": .string(fullName.isEmpty ? login : fullName),
            "login": .string(login),
            "locale": .string(Locale.current.identifier),
        ]
    }
}
