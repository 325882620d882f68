#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `dev-console` (`vitrine dev` only): an error in the page — uncaught, an unhandled
/// rejection, `console.error` — as Resources/sdk/dev-console.js reports it, handed to
/// `report` as one compiler-style line: `SOURCE:LINE:COLUMN: KIND: MESSAGE`.
public struct DevConsoleStrategy: TypedScriptMessageStrategy {
    public static let identifier = "dev-console"

    public struct Request: Decodable, Sendable {
        public var kind: String
        public var message: String
        public var source: String
        public var line: Int
        public var column: Int
    }

    private let report: @MainActor @Sendable (String) -> Void

    public nonisolated init(report: @escaping @MainActor @Sendable (String) -> Void) {
        self.report = report
    }

    public static func line(for request: Request) -> String {
        "\(request.source):\(request.line):\(request.column): \(request.kind): \(request.message)"
    }

    public func respond(to request: Request, context: ScriptMessageContext) async throws -> Bool {
        report(Self.line(for: request))
        return true
    }
}
