#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A native tab: a title and the page it shows. Each tab has its own web view.
public struct Tab: Sendable, Equatable {
    public var title: String
    public var url: URL

    public init(title: String, url: URL) {
        self.title = title
        self.url = url
    }
}

