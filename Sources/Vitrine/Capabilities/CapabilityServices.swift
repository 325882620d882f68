#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The desktop's side of the capabilities: each capability's strategy asks its host for the
/// one service it needs (`ClipboardService`, `WindowService`…, defined beside the strategy)
/// through `ContainerHost.service(_:)`. The GTK adapter's window provides them; a host
/// without one has no desktop for that capability, and the strategy says so.
extension ContainerHost {
    public func service<S>(_ type: S.Type) -> S? { nil }
}

/// What the services of capabilities a kiosk limits know of their window.
@MainActor
public protocol KioskAware: AnyObject {
    /// Whether the window is a kiosk's (it stays fullscreen and shown).
    var isKioskWindow: Bool { get }
}

extension ScriptMessageContext {
    /// The host's `S`, or the refusal of a host without a desktop for `capability`.
    func service<S>(_ type: S.Type, for capability: Capability) throws(ScriptMessageError) -> S {
        guard let service = host.service(S.self) else { throw ScriptMessageError.noDesktop(capability) }
        return service
    }
}

/// Why a capability could not be used here.
extension ScriptMessageError {
    static func noDesktop(_ capability: Capability) -> ScriptMessageError {
        ScriptMessageError("\(capability.rawValue): this container has no desktop to do it")
    }
}
