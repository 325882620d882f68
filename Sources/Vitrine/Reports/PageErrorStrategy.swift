#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `page-error`: an exception nobody caught, or a promise rejected with no handler, in one
/// of the app's pages, as Resources/sdk/page-errors.js reports it. Only the app's own
/// origins reach it (no capability widens that): a foreign or sandboxed frame's errors are
/// not the app's to report. The window's `PageErrorReporting` decides whether it becomes a
/// report (`PageErrorFilter`); the answer says whether it did.
public struct PageErrorStrategy: TypedScriptMessageStrategy {
    public static let identifier = "page-error"

    public enum Kind: String, Codable, Sendable {
        case error, unhandledrejection
    }

    public struct Request: Decodable, Sendable {
        public var kind: Kind
        public var message: String
        public var source: String
        public var line: Int
        public var column: Int
        public var stack: String?

        public init(kind: Kind, message: String, source: String, line: Int, column: Int, stack: String? = nil) {
            self.kind = kind
            self.message = message
            self.source = source
            self.line = line
            self.column = column
            self.stack = stack
        }
    }

    public nonisolated init() {}

    public func respond(to request: Request, context: ScriptMessageContext) async throws -> Bool {
        guard let reporter = context.host.service(PageErrorReporting.self), let caller = context.caller else { return false }
        return reporter.pageError(request, document: "\(caller.token.high):\(caller.token.low)", pageURL: context.pageURL?.absoluteString ?? caller.url)
    }
}

/// Where a window's page errors go (its reports feature).
@MainActor
public protocol PageErrorReporting: AnyObject {
    /// Whether `error`, thrown in the document `document` showing `pageURL`, became a report.
    func pageError(_ error: PageErrorStrategy.Request, document: String, pageURL: String?) -> Bool
}
