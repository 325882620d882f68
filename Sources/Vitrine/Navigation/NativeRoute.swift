#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A native destination recognised in a URL, such as `/product/:id` → `product` with `id`.
public struct NativeRoute: Sendable, Equatable {
    public var name: String
    public var parameters: [String: String]
    public var url: URL

    public init(name: String, parameters: [String: String] = [:], url: URL) {
        self.name = name
        self.parameters = parameters
        self.url = url
    }
}
