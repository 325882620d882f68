#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Whether a page's media may start by itself (`[media] autoplay`), per view: WebKit's
/// website policies. A screen nobody touches needs `allow`: under WebKit's default a
/// refused `play()` waits for a gesture that never comes, and `AudioContext` stays suspended.
public enum AutoplayPolicy: String, Sendable, CaseIterable {
    /// Video and audio start with sound, with no gesture (WebKit's `AUTOPLAY_ALLOW`).
    case allow
    /// Only muted media starts by itself (WebKit's own default, `ALLOW_WITHOUT_SOUND`).
    case muted
    /// Nothing starts without a gesture (`AUTOPLAY_DENY`).
    case deny
}

extension Configuration {
    /// The autoplay policy of every view: the configuration's, else `allow` for signage (a
    /// playlist in `[schedule]` or a display's) and WebKit's own `muted` for the rest.
    public var autoplayPolicy: AutoplayPolicy {
        preferences.autoplay ?? (isSignage ? .allow : .muted)
    }

    /// Whether the configuration plays pages in turn on an unattended screen.
    public var isSignage: Bool {
        !schedule.playlist.isEmpty || displays.contains { !$0.playlist.isEmpty }
    }
}
