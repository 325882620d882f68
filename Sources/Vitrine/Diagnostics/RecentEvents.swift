#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The last events as events-log lines, in memory, for a support bundle: whether or not
/// the program writes an events log (`--events`), the bundle has the latest lines.
@MainActor
public final class RecentEvents: EventSink {
    public let capacity: Int
    private var ring: [String] = []
    private var next = 0

    public init(capacity: Int = SupportArchive.eventLines) {
        self.capacity = max(1, capacity)
    }

    public func record(_ event: ContainerEvent) {
        guard let line = try? JSONEncoder.compactSorted.encode(event), let text = String(data: line, encoding: .utf8) else { return }
        if ring.count < capacity {
            ring.append(text)
        } else {
            ring[next] = text
        }
        next = (next + 1) % capacity
    }

    /// The lines kept, oldest first.
    public var lines: [String] {
        ring.count < capacity ? ring : Array(ring[next...] + ring[..<next])
    }
}
