#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a frame's isolated world tells native code about its document (the registrar's
/// message, one line per field): `token \n main|frame \n self.origin \n location.href`
/// when the document starts or comes back from the back/forward cache, `token \n gone` when
/// it is hidden or unloaded.
public enum FrameRegistration: Sendable, Equatable {
    case document(token: FrameToken, isMainFrame: Bool, origin: String, url: String)
    case gone(FrameToken)

    /// The registration `text` spells; nil when malformed.
    public init?(_ text: String) {
        let fields = text.split(separator: "\n", maxSplits: 3, omittingEmptySubsequences: false)
        guard let first = fields.first, let token = FrameToken(first) else { return nil }
        switch (fields.count, fields.count > 1 ? fields[1] : "") {
        case (2, "gone"): self = .gone(token)
        case (4, "main"), (4, "frame"):
            self = .document(token: token, isMainFrame: fields[1] == "main", origin: String(fields[2]), url: String(fields[3]))
        default: return nil
        }
    }
}
