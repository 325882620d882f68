#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How a `[[displays]]` table names its monitor: GDK's index (0-based) or its connector
/// (`"HDMI-1"`, the name GDK gives as the monitor's model on X11).
public enum MonitorSelector: Sendable, Hashable, CustomStringConvertible {
    case index(Int)
    case connector(String)

    /// An integer is an index (0 or more); a string without spaces a connector name.
    public init?(index: Int) {
        guard index >= 0 else { return nil }
        self = .index(index)
    }

    public init?(connector: String) {
        guard !connector.isEmpty, !connector.contains(where: \.isWhitespace) else { return nil }
        self = .connector(connector)
    }

    public static let expectation = #"a monitor index from 0 or a connector name such as "HDMI-1""#

    public func matches(_ monitor: Monitor) -> Bool {
        switch self {
        case .index(let index): monitor.index == index
        case .connector(let name): monitor.connector?.lowercased() == name.lowercased()
        }
    }

    public var description: String {
        switch self {
        case .index(let index): String(index)
        case .connector(let name): name
        }
    }
}
