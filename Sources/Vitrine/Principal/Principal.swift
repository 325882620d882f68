#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Who is asking: one document in one frame of one app, as the frame's isolated script
/// world saw it (the adapter's `ScriptBridge` says why page scripts cannot forge it).
///
/// Its origin is the document's *true* origin (`self.origin`): a sandboxed frame, or a
/// page served with `Content-Security-Policy: sandbox`, reports `"null"` even when its URL
/// is the app's, and is never granted anything. A class: the bridge looks one up for every
/// message, and a reference is one retain where a copy of its fields would be several.
public final class Principal: Sendable {
    /// The token that stands for this document while it lives (see `FrameRegistry`).
    public let token: FrameToken
    /// `self.origin` as the frame reported it: `"null"` for an opaque origin.
    public let reportedOrigin: String
    /// `location.href` as the frame reported it.
    public let url: String
    /// Whether the document is its view's main (top) frame's.
    public let isMainFrame: Bool
    /// The app the frame belongs to (its app id).
    public let appID: String
    /// The document's origin; nil when it is opaque or unreadable — never granted.
    public let origin: Origin?
    /// The document's URL when it is a real URL of its own true origin; nil for `about:`,
    /// `data:`, `blob:` and `javascript:` documents and for opaque origins, which never pass
    /// an origin check even when their URL or their parent is allowed.
    public let documentURL: URL?

    public init(token: FrameToken, reportedOrigin: String, url: String, isMainFrame: Bool, appID: String) {
        self.token = token
        self.reportedOrigin = reportedOrigin
        self.url = url
        self.isMainFrame = isMainFrame
        self.appID = appID
        let origin = reportedOrigin == "null" ? nil : Origin(string: reportedOrigin)
        self.origin = origin
        if let origin, let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased(),
           !Self.schemesWithoutOwnOrigin.contains(scheme), Origin(parsed) == origin {
            documentURL = parsed
        } else {
            documentURL = nil
        }
    }

    /// Documents whose URL does not say their origin: they inherit or derive it.
    static let schemesWithoutOwnOrigin: Set<String> = ["about", "data", "blob", "javascript"]

    /// The document's URL if its origin is one of `allowed`, else nil.
    public func allowedDocumentURL(_ allowed: Set<Origin>) -> URL? {
        guard let documentURL, let origin, allowed.contains(origin) else { return nil }
        return documentURL
    }
}

