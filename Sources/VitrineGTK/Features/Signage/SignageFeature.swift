#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

/// A window's `[schedule]` and its zones' playlists: one `ScheduleRunner` for the window's
/// only (or first) slot and one per zone with a playlist, each fed its slot's loads, each
/// stopped when the window goes. What remote control (`vitrine ctl next`, `display on|off`,
/// `alert`, MQTT) asks of a kiosk's schedule is asked here. Without a `[schedule]`,
/// `setDisplay` and `showAlert` still work (a runner with an empty schedule is made for
/// them: at an alert's end the start page comes back); `next` needs a playlist.
@MainActor
final class SignageFeature: WindowFeature {
    private weak var container: WebContainer?
    /// The window's runner: made with the window when it has a `[schedule]`, else on demand.
    private(set) var runner: ScheduleRunner?
    /// The runners of the zones' own playlists, by slot.
    private var zoneRunners: [Int: ScheduleRunner] = [:]

    func attach(to host: any FeatureHost) {
        container = host.container
        if !host.configuration.schedule.isEmpty { _ = ensureRunner() }
    }

    /// The first page of the playlist (the start page is the window's), then the zones' runners.
    func start() {
        runner?.start()
        guard let container else { return }
        for (slot, zone) in container.configuration.zones.enumerated() where !zone.playlist.isEmpty && zoneRunners[slot] == nil {
            var schedule = Schedule(playlist: zone.playlist)
            schedule.preload = container.configuration.schedule.preload
            let zoneRunner = ScheduleRunner(container: container, schedule: schedule, slot: slot)
            zoneRunners[slot] = zoneRunner
            zoneRunner.start()
        }
    }

    /// A pane's load goes to its slot's runner; a page loading out of sight is its preloader's.
    func loadChanged(_ load: PaneLoad) {
        guard let container, !container.stage.isPreloading(load.pane) else { return }
        let zoneRunner = load.slot.flatMap { zoneRunners[$0] }
        (zoneRunner ?? runner)?.loadChanged(load.event, load.url)
    }

    func tearDown() {
        runner?.stop()
        runner = nil
        for zoneRunner in zoneRunners.values { zoneRunner.stop() }
        zoneRunners = [:]
    }

    private func ensureRunner() -> ScheduleRunner? {
        if let runner { return runner }
        guard let container, !container.isTornDown else { return nil }
        let made = ScheduleRunner(container: container, schedule: container.configuration.schedule)
        runner = made
        return made
    }

    /// The next playlist page now.
    func next() {
        runner?.next()
    }

    /// The page on screen, showing `url`, says its media ended (`MediaItemPlayer`).
    func mediaEnded(showing url: URL) {
        runner?.mediaEnded(showing: url)
    }

    /// Turns the screen off (cover, page hidden, DPMS where available) or on.
    func setDisplay(on: Bool) {
        ensureRunner()?.display(on)
    }

    /// Shows `url` over the schedule and the screen's hours for `seconds` (the screen on);
    /// `reply` is answered once, from the page's navigation decision.
    func showAlert(_ url: URL, seconds: Int, reply: @escaping @MainActor (RemoteReply) -> Void) {
        guard let runner = ensureRunner() else { return reply(.failure("the kiosk's window is closed")) }
        runner.alert(url, seconds: seconds, reply: reply)
    }

    /// Ends the alert shown; false when there was none.
    @discardableResult
    func clearAlert() -> Bool {
        runner?.clearAlert() ?? false
    }

    /// The alert shown now, if any.
    var alert: SignageAlert? { runner?.alert }

    /// Whether the screen is on (not covered).
    var isDisplayOn: Bool { runner?.isDisplayOn ?? true }
}
