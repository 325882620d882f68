#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a handler can see and use besides the action.
@MainActor
public struct NavigationContext {
    /// The container: to present native routes, open a browser, switch tabs, ask the user.
    public let host: any ContainerHost
    /// The app's own origins (the start URL's and those the configuration allows).
    /// Handlers configured without explicit origins judge against these.
    public let appOrigins: Set<Origin>

    public init(host: any ContainerHost, appOrigins: Set<Origin> = []) {
        self.host = host
        self.appOrigins = appOrigins
    }
}
