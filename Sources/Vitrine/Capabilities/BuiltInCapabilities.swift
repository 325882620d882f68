#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The capabilities' strategies a container registers besides the configured ones (a
/// configured strategy of the same name wins). Each refuses pages not granted its capability;
/// `page-error` (crash and error reports) needs none: it hears the app's own origins only.
public enum BuiltInCapabilities {
    @MainActor
    public static func strategies(for configuration: Configuration) -> [any ScriptMessageStrategy] {
        Capability.allCases.compactMap { $0.strategy(for: configuration) } + [PageErrorStrategy()]
    }
}
