#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How WebKit's memory pressure handler treats each web process: above `limit` megabytes
/// (checked every `pollInterval`) the process is killed, and recovered like a crash.
public struct WebProcessMemory: Sendable, Equatable {
    public var limit: Int
    public var pollInterval: Duration
    /// The fraction of `limit` at which the process is killed.
    public var killThreshold: Double
}
