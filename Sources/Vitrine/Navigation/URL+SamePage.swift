#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension URL {
    /// Whether `self` and `other` address the same page: the one rule Vitrine uses
    /// wherever it asks (the home handler, a playlist page's load, a load's decision).
    ///
    /// Same origin (`Origin`: scheme and host in any case, default ports elided), same path
    /// and same query. An empty path is `/`: WebKit reports a load of `https://a.test` as
    /// `https://a.test/`. The fragment only scrolls within a page, so it never makes
    /// another. URLs without an origin (`file:`, `data:`, `about:`) compare as written,
    /// fragment aside, their scheme in any case.
    public func isSamePage(as other: URL) -> Bool {
        PageAddress(self) == PageAddress(other)
    }
}

/// What `URL.isSamePage(as:)` compares.
private enum PageAddress: Equatable {
    case hierarchical(Origin, path: String, query: String?)
    case opaque(scheme: String, rest: Substring)

    init(_ url: URL) {
        if let origin = Origin(url) {
            let path = url.path(percentEncoded: true)
            self = .hierarchical(origin, path: path.isEmpty ? "/" : path, query: url.query(percentEncoded: true))
        } else {
            let text = url.absoluteString
            let scheme = url.scheme ?? ""
            let withoutFragment = text.prefix { $0 != "#" }
            self = .opaque(scheme: scheme.lowercased(), rest: withoutFragment.dropFirst(scheme.count))
        }
    }
}
