#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

/// What remote control (`vitrine ctl next`, `vitrine ctl display on|off`, MQTT) asks of a
/// container's schedule. Without a `[schedule]`, `display` still blanks and restores the
/// screen (a runner with an empty schedule is made for it); `nextPage` needs a playlist.
extension WebContainer {
    /// The next playlist page now.
    public func nextPage() {
        scheduleRunner?.next()
    }

    /// Turns the screen off (cover, page hidden, DPMS where available) or on.
    public func setDisplay(on: Bool) {
        guard !isTornDown else { return }
        ensureScheduleRunner().display(on)
    }

    /// Whether the screen is on (not covered).
    public var isDisplayOn: Bool { scheduleRunner?.isDisplayOn ?? true }
}
