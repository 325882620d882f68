#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension ScriptMessageStrategies {
    /// A copy with each of `strategies` added unless one with its identifier is there.
    public func addingMissing(_ strategies: [any ScriptMessageStrategy]) -> ScriptMessageStrategies {
        strategies.reduce(self) { $0.strategy(for: $1.identifier) == nil ? $0.adding($1) : $0 }
    }
}
