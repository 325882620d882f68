#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One link of the navigation chain: it decides a navigation or passes it on.
///
/// A handler never modifies the action before passing it (that would be an interceptor)
/// and holds no pointer to the next handler: the `NavigationChain` owns the order.
/// Handlers may suspend (ask a server, show a dialog); the WebKit decision is held until
/// they answer, or until their timeout, which fails closed. Handlers run on the main actor,
/// where WebKit's decision waits: a conforming type is main-actor isolated by itself.
@MainActor
public protocol NavigationActionHandler: Sendable {
    /// A stable name, reported in the events log as the handler that decided.
    nonisolated var name: String { get }

    /// Whether this handler takes part in response-phase decisions. Most handlers only
    /// judge requests; the chain skips them for responses.
    nonisolated var decidesResponses: Bool { get }

    /// How long this handler may take before the chain gives up and cancels. Nil uses
    /// the chain's default.
    nonisolated var timeout: Duration? { get }

    /// Decides `action`, or returns `.pass` to hand it to the next handler.
    func handle(_ action: NavigationAction, context: NavigationContext) async -> HandlerResult
}

extension NavigationActionHandler {
    public nonisolated var decidesResponses: Bool { false }
    public nonisolated var timeout: Duration? { nil }
}

