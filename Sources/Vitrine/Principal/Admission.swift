#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Which principal may call which strategy: the bridge asks before any strategy runs.
public enum Admission {
    /// The calling document's URL if `principal` may call `strategy`, else why not.
    /// `allowed` are the origins the strategy accepts; `capability` is set when the
    /// strategy is a built-in capability's, so that its refusal names the key that grants it.
    public static func decide(_ principal: Principal?, strategy: String, allowed: Set<Origin>,
                              capability: Capability?) -> Result<URL, ScriptMessageError> {
        guard let principal else {
            return .failure(ScriptMessageError("\(strategy): the calling frame is not known to the bridge "
                + "(its document has gone, or it never registered)"))
        }
        if let url = principal.allowedDocumentURL(allowed) { return .success(url) }
        let origin = principal.origin == nil && principal.reportedOrigin == "null" ? "an opaque origin (a sandboxed frame)" : principal.reportedOrigin
        if let capability {
            return .failure(CapabilityGrants.refusal(capability, origin: origin))
        }
        let url = principal.url.count > 120 ? principal.url.prefix(120) + "…" : principal.url
        return .failure(ScriptMessageError("origin '\(origin)' (\(url)) is not allowed to call '\(strategy)'"))
    }
}
