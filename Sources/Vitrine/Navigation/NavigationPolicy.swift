#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What WebKit is told to do with a navigation.
public enum NavigationPolicy: String, Sendable {
    /// Let it proceed. For a new-window action, the URL loads in the current view (through
    /// the chain again): Vitrine never opens browser windows.
    case allow
    /// Stop it; nothing loads.
    case cancel
    /// Hand the response to WebKit's download machinery (response phase only).
    case download
}
