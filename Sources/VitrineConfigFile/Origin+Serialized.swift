#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

extension Origin {
    /// Parses an origin written as browsers serialise it: `scheme://host[:port]`, with at
    /// most a trailing `/`. Unlike `init?(string:)`, a path, query, fragment or user name
    /// makes it fail: an allow-list entry `https://a.example/admin` would otherwise
    /// silently allow all of `https://a.example`.
    public init?(serialized text: String) {
        guard !text.contains(where: \.isWhitespace),
              let url = URL(string: text), let scheme = url.scheme, !scheme.isEmpty,
              text.lowercased().hasPrefix(scheme.lowercased() + "://"),
              url.path.isEmpty || url.path == "/",
              url.query == nil, url.fragment == nil, url.user == nil, url.password == nil,
              !text.hasSuffix(":"), !text.hasSuffix(":/")
        else { return nil }
        self.init(url)
    }

    /// How messages describe what `init?(serialized:)` accepts.
    static let serializedExpectation = #"an origin such as "https://example.org" (scheme://host[:port], no path)"#
}
