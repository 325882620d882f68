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
    func nextPage() {
        scheduleRunner?.next()
    }

    /// The page on screen, showing `url`, says its media ended (`MediaItemPlayer`).
    func mediaEnded(showing url: URL) {
        guard !isTornDown else { return }
        scheduleRunner?.mediaEnded(showing: url)
    }

    /// Plays the media item on screen again.
    func replayMedia() {
        activePane.mediaItems?.replay()
    }

    /// Turns the screen off (cover, page hidden, DPMS where available) or on.
    func setDisplay(on: Bool) {
        guard !isTornDown else { return }
        ensureScheduleRunner().display(on)
    }

    /// Shows `url` over the schedule and the screen's hours for `seconds` (the screen on);
    /// `reply` is answered once, from the page's navigation decision. Without a
    /// `[schedule]` a runner with an empty one is made for it: at the end the start page
    /// comes back.
    func showAlert(_ url: URL, seconds: Int, reply: @escaping @MainActor (RemoteReply) -> Void) {
        guard !isTornDown else { return reply(.failure("the kiosk's window is closed")) }
        ensureScheduleRunner().alert(url, seconds: seconds, reply: reply)
    }

    /// Ends the alert shown; false when there was none.
    @discardableResult
    func clearAlert() -> Bool {
        scheduleRunner?.clearAlert() ?? false
    }

    /// The alert shown now, if any.
    var alert: SignageAlert? { scheduleRunner?.alert }

    /// Whether the screen is on (not covered).
    var isDisplayOn: Bool { scheduleRunner?.isDisplayOn ?? true }
}
