#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `page`: lets the page act on its window. Body: `{"action": "close" | "reload"}` or
/// `{"action": "setTitle", "title": "…"}`. Answers `true`.
public struct PageStrategy: TypedScriptMessageStrategy {
    public static let identifier = "page"

    public enum Request: ActionRequest {
        case close
        case reload
        case setTitle(title: String)
        public static let actions = ["close", "reload", "setTitle"]
    }

    public nonisolated init() {}

    public func respond(to request: Request, context: ScriptMessageContext) async throws -> Bool {
        switch request {
        case .close: context.host.close()
        case .reload: context.host.reload()
        case .setTitle(let title): context.host.setTitle(title)
        }
        return true
    }
}
