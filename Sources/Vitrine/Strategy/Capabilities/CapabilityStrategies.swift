#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `window`: the asking page's window (see `WindowCommand`).
public struct WindowStrategy: ScriptMessageStrategy {
    public static let identifier = Capability.window.rawValue
    public static let capability: Capability? = .window

    public nonisolated init() {}

    public func handle(_ message: ScriptMessage, context: ScriptMessageContext) async throws -> JSONValue {
        let command = try WindowCommand(body: message.body, pageURL: message.pageURL)
        guard let desktop = context.host.desktop else { throw ScriptMessageError.noDesktop(.window) }
        if desktop.isKioskWindow, let refusal = command.kioskRefusal { throw refusal }
        return try desktop.perform(command)
    }
}

extension ScriptMessageStrategies {
    /// A copy with each of `strategies` added unless one with its identifier is there.
    public func addingMissing(_ strategies: [any ScriptMessageStrategy]) -> ScriptMessageStrategies {
        strategies.reduce(self) { $0.strategy(for: $1.identifier) == nil ? $0.adding($1) : $0 }
    }
}
