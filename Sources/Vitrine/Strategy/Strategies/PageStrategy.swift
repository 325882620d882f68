#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `page`: lets the page act on its window. Body: `{"action": "close" | "reload"}` or
/// `{"action": "setTitle", "title": "…"}`. Answers `true`.
public struct PageStrategy: ScriptMessageStrategy {
    public static let identifier = "page"

    public nonisolated init() {}

    public func handle(_ message: ScriptMessage, context: ScriptMessageContext) async throws -> JSONValue {
        let expected = #"{"action": "close" | "reload" | "setTitle", "title"?: string}"#
        guard let action = message.body["action"]?.stringValue else {
            throw ScriptMessageError.invalidBody(Self.identifier, expected: expected)
        }
        switch action {
        case "close": context.host.close()
        case "reload": context.host.reload()
        case "setTitle":
            guard let title = message.body["title"]?.stringValue else {
                throw ScriptMessageError.invalidBody(Self.identifier, expected: expected)
            }
            context.host.setTitle(title)
        default:
            throw ScriptMessageError("page: unknown action '\(action)', expected close, reload or setTitle")
        }
        return true
    }
}
