#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A window a page or Swift asks for: its page and, optionally, its title and size (else
/// the configuration's).
public struct WindowRequest: Sendable, Equatable {
    public var url: URL
    public var title: String?
    public var width: Int?
    public var height: Int?

    public init(url: URL, title: String? = nil, width: Int? = nil, height: Int? = nil) {
        self.url = url
        self.title = title
        self.width = width
        self.height = height
    }
}
