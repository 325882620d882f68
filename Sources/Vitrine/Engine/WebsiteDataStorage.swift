#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where the process's website data (cookies, local storage, caches) lives.
public enum WebsiteDataStorage: Sendable, Equatable {
    /// In memory only: gone when the program ends (a kiosk's default).
    case ephemeral
    /// Kept across restarts, in `directory` (its `data` and `cache` folders), or in
    /// WebKit's own folders for this program when nil (an app's default).
    case persistent(directory: URL?)
}
