#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What became of a load the program asked for (`WebContainer.load(_:)`): the decision
/// its navigation got, or none.
public enum LoadOutcome: Sendable, Equatable {
    /// The navigation chain decided, or the configuration refused the load before the chain
    /// (`Configuration.refusal(ofLoad:)`).
    case decided(NavigationDecision)
    /// No decision will come: the view went away, or WebKit never asked in time.
    case abandoned(reason: String)

    /// Whether the page goes ahead.
    public var isAllowed: Bool {
        if case .decided(let decision) = self { return decision.policy == .allow }
        return false
    }

    /// The answer to a remote command that asked for the load of `url`.
    public func reply(loading url: URL) -> RemoteReply {
        switch self {
        case .decided(let decision) where decision.policy == .allow:
            .success
        case .decided(let decision):
            .failure("refused by the navigation chain (\(decision.handler)): \(url.absoluteString)")
        case .abandoned(let reason):
            .failure("\(url.absoluteString) was not loaded: \(reason)")
        }
    }
}
