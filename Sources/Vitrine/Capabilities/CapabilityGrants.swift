#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Which origin was granted which capabilities. Nothing is granted unless listed.
public struct CapabilityGrants: Sendable, Equatable {
    public private(set) var byOrigin: [Origin: Set<Capability>] = [:]

    public init(_ byOrigin: [Origin: Set<Capability>] = [:]) {
        self.byOrigin = byOrigin
    }

    /// A copy with `capabilities` granted to `origin` as well.
    public func granting(_ capabilities: Set<Capability>, to origin: Origin) -> CapabilityGrants {
        var copy = self
        copy.byOrigin[origin, default: []].formUnion(capabilities)
        return copy
    }

    public func isGranted(_ capability: Capability, to origin: Origin?) -> Bool {
        origin.map { byOrigin[$0]?.contains(capability) == true } ?? false
    }

    /// The origins granted `capability`.
    public func origins(grantedTo capability: Capability) -> Set<Origin> {
        Set(byOrigin.filter { $0.value.contains(capability) }.keys)
    }

    /// Throws the page's rejection unless the page at `pageURL` (the calling frame's own
    /// document, as the bridge's registrar saw it) was granted `capability`.
    public func check(_ capability: Capability, for pageURL: URL?) throws(ScriptMessageError) {
        let origin = pageURL.flatMap(Origin.init)
        guard isGranted(capability, to: origin) else {
            throw Self.refusal(capability, origin: origin?.description ?? pageURL?.absoluteString ?? "this page")
        }
    }

    /// What a page that was not granted `capability` is told: the capability and the key
    /// that grants it.
    public static func refusal(_ capability: Capability, origin: String) -> ScriptMessageError {
        ScriptMessageError(#"capability "\#(capability.rawValue)" is not granted to \#(origin) — add it to [capabilities] in the config"#)
    }
}
