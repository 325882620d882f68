#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The response WebKit received, for the response phase of a navigation.
public struct NavigationResponse: Sendable, Equatable {
    public var mimeType: String
    public var statusCode: Int
    /// Whether WebKit can display this MIME type itself.
    public var canShowMIMEType: Bool
    /// Whether this is the main resource of the main frame (not an iframe's document).
    public var isMainFrame: Bool

    public init(mimeType: String, statusCode: Int, canShowMIMEType: Bool, isMainFrame: Bool) {
        self.mimeType = mimeType
        self.statusCode = statusCode
        self.canShowMIMEType = canShowMIMEType
        self.isMainFrame = isMainFrame
    }
}
