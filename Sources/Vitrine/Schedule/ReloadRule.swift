#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// When the current page is reloaded.
public enum ReloadRule: Sendable, Equatable {
    /// Every so long, counted from the start (then from the last reload).
    case every(Duration)
    /// At these local times, daily.
    case at([TimeOfDay])
}
