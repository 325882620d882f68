#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

/// Runs a container's `[schedule]`: asks the core's `SignageScheduler` what is due next,
/// sleeps until then, and performs it — a playlist page through the container's `load`
/// (so through the navigation chain), a reload, the screen off (`DisplayCover`) or on.
/// Each action is a line in the events log (`ScheduledAction.event`).
///
/// A playlist page counts as shown when its load finishes, and as failed when its load
/// fails or the chain refuses it (a cancelled navigation of that URL): the scheduler then
/// skips to the next page. With `[schedule] preload` (the default) a page loads out of
/// sight (`WebContainer.preloadPage`) and counts as shown once it replaced the one on
/// screen, after it painted; a page that fails leaves the one on screen. Without it pages
/// load in the one view: the old page stays on screen until WebKit commits the new one.
///
/// Alerts (`alert`): the alert page goes through the same `load`, over everything; the
/// command is answered from its navigation decision, and a refused alert ends at once.
///
/// Proof of play: every item's turn ends in one `proof-of-play` line (`PlayRecord`): shown
/// (from its load's end to the next item's, an alert's or the runner's stop), failed,
/// skipped (out of its window), or stale.
///
/// Offline (`PageSnapshotKeeper`): a page shown live is kept; when its load later fails,
/// its kept copy is shown in the slot's view instead (after the failed load's error page
/// ended: WebKit drops a load made before), as `stale`. A page on screen whose reload fails
/// goes stale the same way. While a copy is on screen its live page is tried again by a
/// `LoadRetrier` (a one-item playlist has no next turn to do it), the window page's own
/// backoff and `retry` lines with the reason `stale`: preloaded
/// where preload is on, so a failed attempt leaves the copy on screen, and in the view
/// itself otherwise (the copy stays until the live page commits); the live page replaces
/// the copy once it loaded (`recovered`). Its next turn tries it live too.
///
/// Ownership: owned by its container; holds the one timer (a task, cancelled on every
/// re-arm, on `stop()` and in `deinit`) and the cover. Every callback checks the weak
/// container, so nothing runs once the container is gone.
@MainActor
final class ScheduleRunner {
    private weak var container: WebContainer?
    /// The pane its pages go to (a zone's; 0: the window's only or first).
    private let slot: Int
    private var scheduler: SignageScheduler
    private let now: @MainActor () -> Date
    private var timer: Task<Void, Never>?
    /// Made when first needed: a zone's runner never blanks the screen.
    private(set) lazy var cover: DisplayCover? = container.map { container in
        let cover = DisplayCover(container: container)
        cover.onInput = { [weak self] in self?.input() }
        return cover
    }
    /// The playlist page being loaded, once its load has started.
    private var loading: (index: Int, url: URL, started: Bool)?
    /// The playlist item on screen, since when and how: live (`shown`) or its snapshot
    /// (`stale`); its proof-of-play record is still open.
    private var onScreen: (index: Int, url: URL, since: Date, outcome: PlayRecord.Outcome)?
    /// The failed item whose snapshot waits for the failed load's error page to end.
    private var staleWaiting: (index: Int, url: URL)?
    /// The alert command waiting for its navigation decision.
    private var alertReply: (@MainActor (RemoteReply) -> Void)?
    /// Tries the live page of the stale item on screen (this runner is its target).
    private let liveRetrier = LoadRetrier()
    /// The stale item whose live page is being tried now.
    private var retrying: (index: Int, url: URL)?
    /// The playlist's bundles, each synced into the app's data folder (one per archive URL).
    private var bundleSyncers: [BundleSyncer] = []

    init(container: WebContainer, schedule: Schedule, slot: Int = 0, calendar: LocalCalendar = LocalCalendar(),
         now: @escaping @MainActor () -> Date = { Date() }) {
        self.container = container
        self.slot = slot
        self.now = now
        scheduler = SignageScheduler(schedule: schedule, calendar: calendar, now: now())
        var sources: [BundleSource] = []
        for source in schedule.playlist.compactMap(\.bundle) where !sources.contains(source) { sources.append(source) }
        bundleSyncers = sources.map { source in
            let syncer = BundleSyncer(source: source, dataFolder: container.configuration.appDataDirectory)
            syncer.onReport = { [weak self] report in self?.bundleSynced(source, report) }
            return syncer
        }
        // The cover's stack page exists before the window is shown (display off at start).
        if !schedule.displayWindows.isEmpty || slot == 0 { _ = cover }
        liveRetrier.attach(to: self)
    }

    /// Whether the screen is on, as the schedule last decided.
    var isDisplayOn: Bool { cover?.isShown != true }

    /// Performs what is due now (the first playlist page, the screen's state) and arms the timer.
    func start() {
        runDue()
        for syncer in bundleSyncers { syncer.start() }
    }

    func stop() {
        for syncer in bundleSyncers { syncer.stop() }
        staleWaiting = nil
        timer?.cancel()
        timer = nil
        stopRetrying()
        container?.cancelPreload(inSlot: slot)
        closeRecord(at: now())
    }

    /// `vitrine ctl alert URL --for DURATION`, MQTT `cmd/alert`: answered once, from the
    /// alert page's navigation decision.
    func alert(_ url: URL, seconds: Int, reply: @escaping @MainActor (RemoteReply) -> Void) {
        alertReply?(.failure("replaced by a newer alert"))
        alertReply = reply
        loading = nil
        container?.cancelPreload(inSlot: slot)
        closeRecord(at: now())
        for action in scheduler.startAlert(url, for: .seconds(seconds), at: now()) { perform(action) }
        arm()
    }

    /// `alert-clear`.
    func clearAlert() -> Bool {
        let actions = scheduler.clearAlert(at: now())
        for action in actions { perform(action) }
        arm()
        return !actions.isEmpty
    }

    /// The alert shown now, if any.
    var alert: SignageAlert? { scheduler.alert }

    /// `vitrine ctl next`.
    func next() {
        guard let action = scheduler.skipToNext(at: now()) else { return }
        perform(action)
        arm()
    }

    /// The media item on screen ended (its page's report): the next item, or play it again.
    func mediaEnded(showing url: URL) {
        switch scheduler.mediaEnded(showing: url, at: now()) {
        case .ignore: break
        case .replay: container?.replayMedia()
        case .advance(let action):
            perform(action)
            arm()
        }
    }

    /// `vitrine ctl display on|off`.
    func display(_ on: Bool) {
        guard let action = scheduler.setDisplay(on, at: now()) else { return }
        perform(action)
        arm()
    }

    /// A bundle's sync: a line in the events log; a new version replaces the old one on
    /// screen (or shows when nothing of the playlist is, as when the first sync brings the
    /// first version).
    private func bundleSynced(_ source: BundleSource, _ report: BundleSyncReport) {
        guard let container, !container.isTornDown else { return }
        container.record(.bundleSync(report))
        guard report.outcome == .updated, scheduler.alert == nil, loading == nil,
              onScreen == nil || onScreen?.url == source.pageURL,
              let index = scheduler.schedule.playlist.firstIndex(where: { $0.bundle == source })
        else { return }
        perform(.showPage(index: index, url: source.pageURL))
    }

    // MARK: Load reports

    /// A load event of the container (`started`, `finished`, `failed`).
    func loadChanged(_ event: ContainerEvent.LoadEvent, _ url: URL?) {
        if let waiting = staleWaiting, event == .finished || event == .failed {
            staleWaiting = nil
            if !showStale(waiting.index, waiting.url) { skip(failed: waiting.index, waiting.url) }
            return
        }
        guard let page = loading else { return wentDown(event, url) }
        switch event {
        case .started where !page.started && url?.isSamePage(as: page.url) == true:
            loading?.started = true
        case .finished where page.started:
            loading = nil
            shown(page.index, page.url)
        case .failed where page.started:
            failed(page)
        default:
            break
        }
    }

    /// The playlist page's load was refused (the allow-list holds): it failed.
    private func refused(_ page: (index: Int, url: URL, started: Bool)) {
        // Not from inside the load's own decision: the skip records and loads.
        Task { @MainActor [weak self] in
            guard let self, let current = self.loading, current.index == page.index, current.url == page.url else { return }
            self.failed(current)
        }
    }

    /// A preloaded page's end: on screen, or failed (the page before it stays).
    private func preloadEnded(_ index: Int, _ url: URL, _ outcome: PagePreloader.Outcome) {
        switch outcome {
        case .shown: shown(index, url)
        case .failed: failed((index, url, true))
        }
    }

    // MARK: Private

    private func shown(_ index: Int, _ url: URL) {
        if let retry = retrying, retry.index == index, retry.url == url {
            liveRetrier.recovered(url)
        }
        putOnScreen(index, url, .schedulePageShown, .shown)
        if let container, container.panes.indices.contains(slot) {
            let isMedia = scheduler.schedule.playlist.indices.contains(index) && scheduler.schedule.playlist[index].media != nil
            container.snapshots.pageShown(url, in: container.panes[slot], isMedia: isMedia)
        }
    }

    /// The live page failed but its last good load is kept: shown instead, as `stale`
    /// (its next turn tries the live page again). False when there is none.
    private func showStale(_ index: Int, _ url: URL) -> Bool {
        guard let container, !container.isTornDown, container.panes.indices.contains(slot),
              container.panes[slot].recovery.showCopy(of: url, retried: false) != nil else { return false }
        putOnScreen(index, url, .schedulePageStale, .stale)
        liveRetrier.failed(url, because: .stale)
        return true
    }

    /// The live page on screen failed to load again (a reload) and has a copy: it goes stale.
    private func wentDown(_ event: ContainerEvent.LoadEvent, _ url: URL?) {
        guard event == .failed, let item = onScreen, item.outcome == .shown, url?.isSamePage(as: item.url) == true,
              container?.snapshots.hasSnapshot(for: item.url) == true else { return }
        failed((item.index, item.url, true))
    }

    private func stopRetrying() {
        liveRetrier.forget()
        retrying = nil
    }

    /// Item `index` is on screen, live or stale: the last item's record closes, this one's opens.
    private func putOnScreen(_ index: Int, _ url: URL, _ action: ContainerEvent.NativeAction, _ outcome: PlayRecord.Outcome) {
        stopRetrying()
        liveRetrier.reset()
        closeRecord(at: now())
        container?.record(.native(action: action, detail: "\(index) \(url.absoluteString)"))
        onScreen = (index, url, now(), outcome)
        scheduler.pageShown(index, at: now())
        arm()
    }

    private func failed(_ page: (index: Int, url: URL, started: Bool)) {
        loading = nil
        // A failed attempt at the stale item's live page: its copy stays on screen.
        if let retry = retrying, retry.index == page.index, retry.url == page.url,
           onScreen?.index == page.index, onScreen?.outcome == .stale {
            retrying = nil
            liveRetrier.failed(page.url, because: .stale)
            return
        }
        container?.record(.native(action: .schedulePageFailed, detail: "\(page.index) \(page.url.absoluteString)"))
        // After this turn of the main loop: the failed load's own handling (its error
        // page) goes first, and is then replaced by the snapshot or the next page.
        Task { @MainActor [weak self] in
            guard let self, let container = self.container, !container.isTornDown else { return }
            if container.snapshots.hasSnapshot(for: page.url), container.panes.indices.contains(self.slot),
               container.snapshots.isLoading(container.panes[self.slot]) {
                self.staleWaiting = (page.index, page.url)
                return
            }
            if !self.showStale(page.index, page.url) { self.skip(failed: page.index, page.url) }
        }
    }

    /// The failed item's turn ends (proof of play `failed`); the next one's begins.
    private func skip(failed index: Int, _ url: URL) {
        let at = now()
        container?.record(.proofOfPlay(PlayRecord(item: index, url: url.absoluteString, start: at, end: at, outcome: .failed)))
        if let next = scheduler.pageFailed(index, at: at) { perform(next) }
        arm()
    }

    private func input() {
        guard let action = scheduler.wake(at: now()) else { return }
        perform(action)
        arm()
    }

    private func runDue() {
        for action in scheduler.takeDue(at: now()) { perform(action) }
        arm()
    }

    /// Ends the open proof-of-play record of the item on screen.
    private func closeRecord(at end: Date) {
        guard let shown = onScreen else { return }
        onScreen = nil
        container?.record(.proofOfPlay(PlayRecord(item: shown.index, url: shown.url.absoluteString, start: shown.since, end: end,
                                                  outcome: shown.outcome)))
    }

    private func perform(_ action: ScheduledAction) {
        guard let container, !container.isTornDown else { return }
        staleWaiting = nil
        switch action {
        case .showPage, .showStart, .showAlert: stopRetrying()
        default: break
        }
        if let event = action.event { container.record(event) }
        switch action {
        case .skip(let index, let url):
            let at = now()
            container.record(.proofOfPlay(PlayRecord(item: index, url: url.absoluteString, start: at, end: at, outcome: .skipped)))
        case .showStart:
            container.cancelPreload(inSlot: slot)
            container.returnToStart()
        case .showAlert(let url):
            container.cancelPreload(inSlot: slot)
            container.startLoading(url, inSlot: slot) { [weak self] outcome in
                guard let self else { return }
                let reply = outcome.reply(loading: url)
                self.alertReply?(reply)
                self.alertReply = nil
                // A refused alert gives the screen back at once (after the decision's turn).
                if !reply.ok {
                    Task { @MainActor [weak self] in
                        guard let self, self.scheduler.alert?.url == url else { return }
                        for action in self.scheduler.alertRefused(at: self.now()) { self.perform(action) }
                        self.arm()
                    }
                }
            }
        case .alertEnded:
            alertReply?(.failure("the alert ended before it was shown"))
            alertReply = nil
        case .showPage(let index, let url) where container.preloads(inSlot: slot):
            loading = nil
            container.preloadPage(item: index, url: url, inSlot: slot) { [weak self] outcome in self?.preloadEnded(index, url, outcome) }
        case .showPage(let index, let url):
            container.cancelPreload(inSlot: slot)
            let page = (index: index, url: url, started: false)
            loading = page
            container.startLoading(url, inSlot: slot) { [weak self] outcome in
                if case .decided(let decision) = outcome, decision.policy != .allow { self?.refused(page) }
            }
        case .reload:
            container.reload()
        case .display(let on, _):
            on ? cover?.hide() : cover?.show()
        }
    }

    /// One timer, for the next due date.
    private func arm() {
        timer?.cancel()
        timer = nil
        let current = now()
        guard let date = scheduler.nextDate(after: current) else { return }
        let delay = Duration.milliseconds(max(0, Int64((date.timeIntervalSince(current) * 1000).rounded(.up))))
        timer = Task { @MainActor [weak self] in
            try? await Task.sleep(for: delay)
            guard !Task.isCancelled, let self, self.container?.isTornDown == false else { return }
            self.runDue()
        }
    }

    isolated deinit {
        timer?.cancel()
        alertReply?(.failure("the kiosk's window closed"))
    }
}

extension ScheduleRunner: LoadRetryTarget {
    /// The stale item is still on screen, and nothing else is loading in its slot.
    func isStillRetrying(_ url: URL, standIn _: URL?) -> Bool {
        guard let container, !container.isTornDown, let item = onScreen, item.outcome == .stale, item.url == url else { return false }
        return loading == nil && scheduler.alert == nil && container.preloaders[slot] == nil
    }

    /// The stale item's turn again, live (preloaded where preload is on).
    func loadAgain(_ url: URL) {
        guard let item = onScreen else { return }
        perform(.showPage(index: item.index, url: url))
        retrying = (item.index, url)
    }

    func record(_ event: ContainerEvent) {
        container?.record(event)
    }
}
