#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The app's sidecars as its pages see them (`sidecars` capability).
@MainActor
public protocol SidecarsService: AnyObject {
    /// The sidecar declared as `name` now; nil when the app declares none of that name.
    func sidecar(named name: String) -> SidecarStatus?
    /// The names the app declares, in the configuration's order.
    var sidecarNames: [String] { get }
}

/// What a page learns of one sidecar: the loopback port it listens on and its state.
public struct SidecarStatus: Codable, Sendable, Equatable {
    /// The port on 127.0.0.1 Vitrine chose for it (`$VITRINE_SIDECAR_PORT`).
    public var port: Int
    /// `starting`, `ready`, `restarting`, `exited`, `failed` or `stopped`.
    public var state: SidecarState

    public init(port: Int, state: SidecarState) {
        self.port = port
        self.state = state
    }
}

/// `sidecars`: `{"action": "get", "name"}` → `{port, state}` of the app's sidecar `name`
/// (`[[sidecars]]`); an unknown name is refused with the names there are. Pages granted the
/// capability also hear `sidecars:ready` (`{name, port}`) and `sidecars:exited`
/// (`{name, state, code?, signal?}`).
public struct SidecarsStrategy: TypedScriptMessageStrategy {
    public static let identifier = "sidecars"
    public static let capability: Capability? = .sidecars

    public enum Request: ActionRequest {
        case get(name: String)
        public static let actions = ["get"]
    }

    public nonisolated init() {}

    public func respond(to request: Request, context: ScriptMessageContext) async throws -> SidecarStatus {
        guard case .get(let name) = request else { throw ScriptMessageError("sidecars: unknown action") }
        let sidecars = try context.service(SidecarsService.self, for: .sidecars)
        guard let status = sidecars.sidecar(named: name) else {
            let known = sidecars.sidecarNames
            let names = known.isEmpty ? "the app declares none ([[sidecars]])" : "the app's are: " + known.joined(separator: ", ")
            throw ScriptMessageError("sidecars: get: no sidecar named \"\(name.prefix(64))\"; \(names)")
        }
        return status
    }
}
