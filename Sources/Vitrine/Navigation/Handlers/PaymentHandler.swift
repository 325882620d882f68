#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Guards payment pages with a native verification step: the navigation waits (the WebKit
/// decision is held) until the user confirms natively; declining cancels it.
public struct PaymentHandler: NavigationActionHandler {
    public typealias Verifier = @MainActor @Sendable (URL, NavigationContext) async -> Bool

    /// The name the chain reports and a configuration file's `type` uses.
    public nonisolated static let typeName = "payment"
    public nonisolated let name = Self.typeName
    /// Path prefixes that are payment pages, e.g. `/pay`.
    public nonisolated let pathPrefixes: [String]
    /// A person needs time to read and confirm.
    public nonisolated let timeout: Duration?
    private let verify: Verifier

    public nonisolated init(pathPrefixes: [String] = ["/pay"], timeout: Duration = .seconds(300), verify: Verifier? = nil) {
        self.pathPrefixes = pathPrefixes
        self.timeout = timeout
        self.verify = verify ?? { url, context in
            await context.host.confirm(
                title: "Confirm payment",
                message: "This page starts a payment:\n\(url.absoluteString)\n\nContinue?")
        }
    }

    public func handle(_ action: NavigationAction, context: NavigationContext) async -> HandlerResult {
        let path = action.url.path
        guard pathPrefixes.contains(where: { path == $0 || path.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") })
        else { return .pass }
        return .decide(await verify(action.url, context) ? .allow : .cancel)
    }
}
