#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A signage day's plan, from `[[schedule.playlist]]`, `[[schedule.reload]]` and
/// `[[schedule.display]]`: pages that take turns, reloads, and the hours the screen is on.
/// Empty (the default): nothing is scheduled.
public struct Schedule: Sendable, Equatable {
    public var playlist: [PlaylistEntry]
    public var reloads: [ReloadRule]
    /// The screen is on while one of these covers the moment; none: always on.
    public var screenOnHours: [ScreenOnHours]
    /// How long input during "off" keeps the screen on.
    public var wakeDuration: Duration
    /// Days the daily proof-of-play files are kept.
    public var proofOfPlayDays = 30
    /// Each playlist page loads in a hidden view and replaces the one on screen only once
    /// it has painted (`PreloadTransition`); false: pages load in the view on screen.
    public var preload = true

    public init(playlist: [PlaylistEntry] = [], reloads: [ReloadRule] = [], screenOnHours: [ScreenOnHours] = [],
                wakeDuration: Duration = .seconds(60)) {
        self.playlist = playlist
        self.reloads = reloads
        self.screenOnHours = screenOnHours
        self.wakeDuration = wakeDuration
    }

    public var isEmpty: Bool { playlist.isEmpty && reloads.isEmpty && screenOnHours.isEmpty }

    /// Why `configuration`'s chain will never show `url`, as far as can be told without a
    /// page (nil: it may be shown): its origin-allowlist refuses the URL's origin.
    public static func refusal(of url: URL, in configuration: Configuration) -> String? {
        guard let allowlist = configuration.navigationChain.handlers.lazy.compactMap({ $0 as? OriginAllowlistHandler }).first
        else { return nil }
        let allowed = allowlist.origins ?? configuration.appOrigins
        guard let origin = Origin(url), allowed.contains(origin) else {
            return "is refused by the navigation chain's \(OriginAllowlistHandler.typeName): its origin is not one of the app's (add it to allowed-origins)"
        }
        return nil
    }

    /// Whether `days` is an acceptable `proof-of-play-days`: 1 to 3650.
    public static func acceptsProofOfPlayDays(_ days: Int) -> Bool { (1...3650).contains(days) }

    /// Whether a playlist entry's `duration` is acceptable: more than zero.
    public static func acceptsDuration(_ duration: Duration) -> Bool { duration > .zero }
}

