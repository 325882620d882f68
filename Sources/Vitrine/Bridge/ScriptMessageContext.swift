#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a strategy can use besides the message.
@MainActor
public struct ScriptMessageContext {
    public let host: any ContainerHost
    /// The origins' capabilities: the gate in front of every strategy that needs one.
    public let capabilities: CapabilityGrants
    /// The document that called, when the bridge knows it (capabilities that act for one
    /// document, such as its menus, need it).
    public let caller: Principal?
    /// The URL of the page that posted the message being answered (set for each message).
    public internal(set) var pageURL: URL?

    public init(host: any ContainerHost, capabilities: CapabilityGrants = CapabilityGrants(), caller: Principal? = nil) {
        self.host = host
        self.capabilities = capabilities
        self.caller = caller
    }

    /// Throws the page's rejection unless `strategy` needs no capability or the page that
    /// posted `pageURL` was granted it.
    func admit(_ strategy: any ScriptMessageStrategy, pageURL: URL?) throws(ScriptMessageError) {
        guard let capability = type(of: strategy).capability else { return }
        try capabilities.check(capability, for: pageURL)
    }
}
