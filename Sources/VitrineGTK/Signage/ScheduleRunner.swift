#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

/// Runs a container's `[schedule]` in one slot: reports to the core's `PlaylistPlayback`
/// what the clock, the slot's views and the commands did, and carries out the actions it
/// answers — a playlist page through the container's `load` (so through the navigation
/// chain) or preloaded out of sight (`PagePreloader`), a kept copy
/// (`PageSnapshotKeeper`), a reload, the screen off (`DisplayCover`) or on, an alert's reply.
/// Every decision is the playback's; see it for what a turn is.
///
/// Ownership: owned by its container; holds the one timer (a task, cancelled on every
/// re-arm, on `stop()` and in `deinit`), the cover and the playlist's bundle syncers. Every
/// callback checks the weak container, so nothing runs once the container is gone.
@MainActor
final class ScheduleRunner {
    private weak var container: WebContainer?
    /// The pane its pages go to (a zone's; 0: the window's only or first).
    private let slot: Int
    private var playback: PlaylistPlayback
    private let now: @MainActor () -> Date
    private var timer: Task<Void, Never>?
    /// Made when first needed: a zone's runner never blanks the screen.
    private(set) lazy var cover: DisplayCover? = container.map { container in
        let cover = DisplayCover(container: container)
        cover.onInput = { [weak self] in self?.report { $0.input(at: $1) } }
        return cover
    }
    /// The alert command waiting for its navigation decision.
    private var alertReply: (@MainActor (RemoteReply) -> Void)?
    /// The playlist's bundles, each synced into the app's data folder (one per archive URL).
    private var bundleSyncers: [BundleSyncer] = []

    init(container: WebContainer, schedule: Schedule, slot: Int = 0, calendar: LocalCalendar = LocalCalendar(),
         now: @escaping @MainActor () -> Date = { Date() }) {
        self.container = container
        self.slot = slot
        self.now = now
        playback = PlaylistPlayback(schedule: schedule, calendar: calendar, now: now())
        var sources: [BundleSource] = []
        for source in schedule.playlist.compactMap(\.bundle) where !sources.contains(source) { sources.append(source) }
        bundleSyncers = sources.map { source in
            let syncer = BundleSyncer(source: source, dataFolder: container.configuration.appDataDirectory)
            syncer.onReport = { [weak self] report in self?.bundleSynced(source, report) }
            return syncer
        }
        // The cover's stack page exists before the window is shown (display off at start).
        if !schedule.screenOnHours.isEmpty || slot == 0 { _ = cover }
    }

    /// Whether the screen is on, as the schedule last decided.
    var isDisplayOn: Bool { cover?.isShown != true }

    /// Performs what is due now (the first playlist page, the screen's state) and arms the timer.
    func start() {
        report { $0.tick(at: $1) }
        for syncer in bundleSyncers { syncer.start() }
    }

    func stop() {
        for syncer in bundleSyncers { syncer.stop() }
        timer?.cancel()
        timer = nil
        // Its window is torn down already: only the records and the alert's answer go out.
        run(playback.stop(at: now()) + playback.closed())
    }

    /// `vitrine ctl alert URL --for DURATION`, MQTT `cmd/alert`: answered once, from the
    /// alert page's navigation decision.
    func alert(_ url: URL, seconds: Int, reply: @escaping @MainActor (RemoteReply) -> Void) {
        guard let container, !container.isTornDown else { return reply(.failure("the kiosk's window is closed")) }
        playback.canPreload = container.stage.preloads(inSlot: slot)
        var actions = playback.alert(url, seconds: seconds, at: now())
        // The alert it replaces is answered first.
        if case .answerAlert = actions.first { perform(actions.removeFirst()) }
        alertReply = reply
        run(actions)
        arm()
    }

    /// `alert-clear`.
    func clearAlert() -> Bool {
        let cleared = playback.alert != nil
        report { $0.clearAlert(at: $1) }
        return cleared
    }

    /// The alert shown now, if any.
    var alert: SignageAlert? { playback.alert }

    /// `vitrine ctl next`.
    func next() { report { $0.next(at: $1) } }

    /// The media item on screen ended (its page's report): the next item, or play it again.
    func mediaEnded(showing url: URL) { report { $0.mediaEnded(showing: url, at: $1) } }

    /// `vitrine ctl display on|off`.
    func display(_ on: Bool) { report { $0.display(on, at: $1) } }

    /// A bundle's sync: a line in the events log; a new version may replace the old one.
    private func bundleSynced(_ source: BundleSource, _ report: BundleSyncReport) {
        guard let container, !container.isTornDown else { return }
        container.record(.bundleSync(report))
        guard report.outcome == .updated else { return }
        self.report { $0.bundleUpdated(source, at: $1) }
    }

    /// A load event of the slot's view (`started`, `finished`, `failed`).
    func loadChanged(_ event: ContainerEvent.LoadEvent, _ url: URL?) {
        let hasCopy = url.map { container?.snapshots.hasSnapshot(for: $0) == true } ?? false
        report { $0.viewLoadChanged(event, url, at: $1, hasCopy: hasCopy) }
    }

    // MARK: Carrying out

    /// Gives `input` the playback and the time, carries out what it answers, re-arms the timer.
    private func report(_ input: (inout PlaylistPlayback, Date) -> [PlaylistPlayback.Action]) {
        guard let container, !container.isTornDown else { return }
        playback.canPreload = container.stage.preloads(inSlot: slot)
        run(input(&playback, now()))
        arm()
    }

    /// Runs `input` on the next turn of the main loop (not from inside a load's own handling).
    private func later(_ input: @escaping (inout PlaylistPlayback, Date) -> [PlaylistPlayback.Action]) {
        Task { @MainActor [weak self] in self?.report(input) }
    }

    private func run(_ actions: [PlaylistPlayback.Action]) {
        for action in actions { perform(action) }
    }

    /// Records and the alert's answer go out even once the window is torn down (`stop`).
    private func perform(_ action: PlaylistPlayback.Action) {
        switch action {
        case .record(let event):
            container?.record(event)
            return
        case .answerAlert(let reply):
            alertReply?(reply)
            alertReply = nil
            return
        default:
            break
        }
        guard let container, !container.isTornDown else { return }
        switch action {
        case .record, .answerAlert:
            break
        case .load(let item, let url):
            container.startLoading(url, inSlot: slot) { [weak self] outcome in
                guard case .decided(let decision) = outcome, decision.policy != .allow else { return }
                self?.later { $0.refused(item, url, at: $1) }
            }
        case .preload(let item, let url), .preloadCopy(let item, let url):
            let copy = if case .preloadCopy = action { true } else { false }
            container.stage.preloadPage(item: item, url: url, copy: copy, inSlot: slot) { [weak self] outcome in
                self?.report { $0.preloadEnded(item, url, outcome == .shown ? .swapped : .failed, at: $1) }
            }
        case .showCopy(let item, let url):
            let shown = container.stage.panes.indices.contains(slot) && container.stage.panes[slot].recovery.showCopy(of: url, retried: false) != nil
            report { $0.copyShown(item, url, shown, at: $1) }
        case .settle:
            later { [weak self] playback, at in
                guard let self, let container = self.container, container.stage.panes.indices.contains(self.slot) else { return [] }
                let url = playback.failedItemURL
                return playback.settle(at: at, hasCopy: url.map { container.snapshots.hasSnapshot(for: $0) } ?? false,
                                       viewIsLoading: container.snapshots.isLoading(container.stage.panes[self.slot]))
            }
        case .cancelPreload:
            container.stage.cancelPreload(inSlot: slot)
        case .keep(let url, let isMedia):
            if container.stage.panes.indices.contains(slot) { container.snapshots.pageShown(url, in: container.stage.panes[slot], isMedia: isMedia) }
        case .showStart:
            container.returnToStart()
        case .showAlert(let url, let serial):
            container.startLoading(url, inSlot: slot) { [weak self] outcome in
                let reply = outcome.reply(loading: url)
                self?.later { $0.alertDecided(serial, reply: reply, at: $1) }
            }
        case .reload:
            container.reload()
        case .display(let on):
            on ? cover?.hide() : cover?.show()
        case .replayMedia:
            container.stage.activePane.mediaItems?.replay()
        }
    }

    /// One timer, for the next due date.
    private func arm() {
        timer?.cancel()
        timer = nil
        let current = now()
        guard let date = playback.nextDate(after: current) else { return }
        let delay = Duration.milliseconds(max(0, Int64((date.timeIntervalSince(current) * 1000).rounded(.up))))
        timer = Task { @MainActor [weak self] in
            try? await Task.sleep(for: delay)
            guard !Task.isCancelled, let self else { return }
            self.report { $0.tick(at: $1) }
        }
    }

    isolated deinit {
        timer?.cancel()
        alertReply?(.failure("the kiosk's window closed"))
    }
}
