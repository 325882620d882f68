#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A kiosk's start page kept (`PageSnapshots`, under the `SnapshotPolicy`) and shown in its
/// place while it cannot be reached, so a kiosk that boots offline shows its last content
/// rather than an error page. The live page keeps being tried (`RetrySchedule`) and
/// replaces the copy once it loads.
///
/// Only for a kiosk window with an http(s) start page and no playlist, zones or tabs (a
/// playlist keeps its own pages), and only when error pages are on (the copy takes the
/// error page's place, the retries with it). Only the start page has a copy: any other
/// page that fails shows the error page, and a copy is stored and looked up under the
/// start URL, so no other address can bring it up. An untrusted certificate or a failed
/// TLS handshake shows its error page too: that is for someone to see and fix, not to
/// hide behind yesterday's page.
public struct StartPageCopy: Sendable, Equatable {
    /// The page kept, and the name its copy is stored under.
    public let startURL: URL

    public init?(kiosk: Bool, startURL: URL?, hasPlaylist: Bool, hasZones: Bool, hasTabs: Bool, showsErrorPages: Bool) {
        guard kiosk, showsErrorPages, !hasPlaylist, !hasZones, !hasTabs, let startURL,
              let scheme = startURL.scheme?.lowercased(), scheme == "http" || scheme == "https"
        else { return nil }
        self.startURL = startURL
    }

    /// The copy a window of `configuration` keeps, or nil when it keeps none.
    public init?(_ configuration: Configuration) {
        self.init(kiosk: configuration.kiosk != nil, startURL: configuration.startURL,
                  hasPlaylist: !configuration.schedule.playlist.isEmpty, hasZones: !configuration.zones.isEmpty,
                  hasTabs: !configuration.tabs.isEmpty, showsErrorPages: configuration.showsErrorPages)
    }

    /// Whether the page that loaded at `url` is the start page (kept, when `SnapshotPolicy`
    /// agrees: a 2xx answer, once per interval).
    public func keeps(_ url: URL) -> Bool {
        url.isSamePage(as: startURL)
    }

    /// Whether the copy may be shown for a load of `url` that failed with `failure`: the
    /// start page, unreachable (not a TLS failure).
    public func standsIn(for url: URL, because failure: LoadFailure) -> Bool {
        failure != .tls && url.isSamePage(as: startURL)
    }
}
