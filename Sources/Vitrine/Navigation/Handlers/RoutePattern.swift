#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A path pattern with `:name` segments, e.g. `/product/:id`, and the route it names.
public struct RoutePattern: Sendable, Equatable {
    public nonisolated let name: String
    public nonisolated let pattern: String
    private let segments: [Substring]

    public nonisolated init(_ pattern: String, name: String) {
        self.name = name
        self.pattern = pattern
        self.segments = pattern.split(separator: "/")
    }

    /// The parameters if `path` (percent-encoded, as in the URL) matches, segment for
    /// segment; nil otherwise. Each segment is decoded once.
    public func match(_ path: String) -> [String: String]? {
        let parts = path.split(separator: "/")
        guard parts.count == segments.count else { return nil }
        var parameters: [String: String] = [:]
        for (segment, part) in zip(segments, parts) {
            let decoded = String(part).percentDecoded ?? String(part)
            if segment.hasPrefix(":") {
                parameters[String(segment.dropFirst())] = decoded
            } else if segment != decoded {
                return nil
            }
        }
        return parameters
    }
}
