#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A local folder served to the view under the `app` URL scheme.
public struct AppDirectory: Sendable, Equatable {
    public static let scheme = "app"

    public var path: URL
    public var host: String

    public init(path: URL, host: String = "app") {
        self.path = path
        self.host = host
    }

    /// `app://<host>/`
    public var rootURL: URL { URL(string: "\(Self.scheme)://\(host)/")! }
}
