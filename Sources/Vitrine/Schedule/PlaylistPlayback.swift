#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A playlist played in one slot of a window (the window's only view, or a zone's), as a
/// state machine with no view and no timer: the adapter reports what happened (the clock's
/// tick, a load event of the view on screen, a preload's end, a command, an alert) and
/// carries out the `Action`s each report answers, in order. `SignageScheduler` decides
/// what is due when; this decides how each item gets on screen and what its turn was.
///
/// - A page counts as shown when its load finishes (in the view), or once it replaced the
///   view out of sight after it painted (`[schedule] preload`, `PreloadTransition`); it
///   failed when its load fails or the chain refuses it, and the next item is tried at
///   once. A failed preload ends its turn at once: the hidden view's error page and its
///   retries are never waited for.
/// - Offline: a page with a kept copy (`PageSnapshots`) that fails shows the copy instead,
///   as `stale`. With preload the copy loads out of sight like a live page and is swapped in
///   only once it painted; in the view it waits for the failed load's error page to end
///   (WebKit drops a load started before). While a copy is on screen its live page is tried
///   again on `RetrySchedule`'s backoff (a one-item playlist has no next turn to do it).
/// - Alerts go over everything; the command is answered from the alert's navigation decision.
/// - Proof of play: every turn ends in one `proof-of-play` record: shown, stale, failed or skipped.
public struct PlaylistPlayback: Sendable {
    /// What the adapter does.
    public enum Action: Sendable, Equatable {
        /// A line in the events log.
        case record(ContainerEvent)
        /// Load item `item`'s page in the slot's view, through the navigation chain; a
        /// refusal is reported with `refused`, the load's events with `viewLoadChanged`.
        case load(item: Int, url: URL)
        /// Load item `item`'s page out of sight; `preloadEnded` reports its end.
        case preload(item: Int, url: URL)
        /// Load item `item`'s kept copy out of sight; `preloadEnded` reports its end.
        case preloadCopy(item: Int, url: URL)
        /// Show item `item`'s kept copy in the view; `copyShown` says whether it could.
        case showCopy(item: Int, url: URL)
        /// Call `settle` on the next turn of the loop (a failed load's own handling goes first).
        case settle
        /// Drop the preload under way, if any, without a word.
        case cancelPreload
        /// Keep the page on screen (`url`) as its copy, when the snapshot policy says so.
        case keep(url: URL, isMedia: Bool)
        /// Load the start page.
        case showStart
        /// Load the alert page over everything; `alertDecided` reports its decision with
        /// `serial` (an older alert's late decision is not this one's).
        case showAlert(URL, serial: Int)
        /// Answer the alert command waiting.
        case answerAlert(RemoteReply)
        case reload
        /// Uncover the screen (`true`) or cover it.
        case display(on: Bool)
        /// Play the media item on screen again.
        case replayMedia
    }

    /// The item on screen, since when and how (`shown` live or `stale`): its record is open.
    struct OnScreen: Sendable, Equatable {
        let item: Int
        let url: URL
        let since: Date
        let outcome: PlayRecord.Outcome
    }

    /// What is under way for the slot.
    enum Pending: Sendable, Equatable {
        /// The item's page loads in the view (`started`: its own load began).
        case load(item: Int, url: URL, started: Bool)
        /// The item's page, or its copy, loads out of sight.
        case preload(item: Int, url: URL, copy: Bool)
        /// The item failed; `settle` decides what comes next.
        case failed(item: Int, url: URL)
        /// The failed item's copy waits for the failed load's error page to end.
        case copyAfterErrorPage(item: Int, url: URL)
    }

    public internal(set) var scheduler: SignageScheduler
    /// Whether the next page may load out of sight: the adapter sets it before each report
    /// (preload asked for, a stage to put a second view in, a page in the view already).
    public var canPreload = false
    var onScreen: OnScreen?
    var pending: Pending?
    /// The stale item's live page is tried again then.
    private(set) var retryAt: Date?
    private var retries: RetrySchedule
    /// The attempt at the stale item's live page is under way.
    private var retryingLive = false
    /// An alert command waits for its page's navigation decision.
    private var alertWaiting = false
    /// The latest alert command's number.
    private var alertSerial = 0

    public init(schedule: Schedule, calendar: LocalCalendar = LocalCalendar(), now: Date,
                retries: RetrySchedule = RetrySchedule()) {
        scheduler = SignageScheduler(schedule: schedule, calendar: calendar, now: now)
        self.retries = retries
    }

    public var schedule: Schedule { scheduler.schedule }
    /// The alert shown now, if any.
    public var alert: SignageAlert? { scheduler.alert }
    /// The screen is on as last decided (nil: never decided, on).
    public var isDisplayOn: Bool { scheduler.displayOn != false }
    /// The item on screen, if any.
    public var itemOnScreen: Int? { onScreen?.item }

    /// When the adapter next calls `tick`, or nil when nothing ever will be due.
    public func nextDate(after now: Date) -> Date? {
        [scheduler.nextDate(after: now), retryAt.map { max($0, now) }].compactMap { $0 }.min()
    }

    // MARK: The clock and commands

    /// What is due at `now` (the first page at start, a turn, a reload, the screen's hours,
    /// the stale item's next live attempt).
    public mutating func tick(at now: Date) -> [Action] {
        var actions: [Action] = []
        if let due = retryAt, due <= now { actions += retryLive(at: now) }
        for action in scheduler.takeDue(at: now) { actions += perform(action, at: now) }
        return actions
    }

    /// The runner stops (its window closes): the open record ends.
    public mutating func stop(at now: Date) -> [Action] {
        pending = nil
        stopRetrying()
        return [.cancelPreload] + closeRecord(at: now)
    }

    /// `vitrine ctl next`.
    public mutating func next(at now: Date) -> [Action] {
        scheduler.skipToNext(at: now).map { perform($0, at: now) } ?? []
    }

    /// `vitrine ctl display on|off`.
    public mutating func display(_ on: Bool, at now: Date) -> [Action] {
        scheduler.setDisplay(on, at: now).map { perform($0, at: now) } ?? []
    }

    /// Input while the screen is covered.
    public mutating func input(at now: Date) -> [Action] {
        scheduler.wake(at: now).map { perform($0, at: now) } ?? []
    }

    /// The media item on screen, showing `url`, ended.
    public mutating func mediaEnded(showing url: URL, at now: Date) -> [Action] {
        switch scheduler.mediaEnded(showing: url, at: now) {
        case .ignore: []
        case .replay: [.replayMedia]
        case .advance(let action): perform(action, at: now)
        }
    }

    /// A bundle's new version: it replaces the old one on screen, or shows when nothing of
    /// the playlist is on screen or under way.
    public mutating func bundleUpdated(_ source: BundleSource, at now: Date) -> [Action] {
        guard scheduler.alert == nil, pending == nil, onScreen == nil || onScreen?.url == source.pageURL,
              let index = schedule.playlist.firstIndex(where: { $0.bundle == source }) else { return [] }
        return perform(.showPage(index: index, url: source.pageURL), at: now)
    }

    // MARK: Alerts

    /// An alert command: its page over everything for `seconds` (a newer one replaces it).
    public mutating func alert(_ url: URL, seconds: Int, at now: Date) -> [Action] {
        var actions: [Action] = alertWaiting ? [.answerAlert(.failure("replaced by a newer alert"))] : []
        alertWaiting = true
        alertSerial += 1
        pending = nil
        actions += [.cancelPreload] + closeRecord(at: now)
        for action in scheduler.startAlert(url, for: .seconds(seconds), at: now) { actions += perform(action, at: now) }
        return actions
    }

    /// `alert-clear`: nothing when no alert is shown.
    public mutating func clearAlert(at now: Date) -> [Action] {
        scheduler.clearAlert(at: now).flatMap { perform($0, at: now) }
    }

    /// The navigation decision of alert `serial`'s page, as its command's reply. Report it
    /// after the decision's own turn: a refused alert gives the screen back at once.
    public mutating func alertDecided(_ serial: Int, reply: RemoteReply, at now: Date) -> [Action] {
        guard serial == alertSerial else { return [] }
        var actions: [Action] = []
        if alertWaiting { actions.append(.answerAlert(reply)) }
        alertWaiting = false
        guard !reply.ok, scheduler.alert != nil else { return actions }
        for action in scheduler.alertRefused(at: now) { actions += perform(action, at: now) }
        return actions
    }

    /// The window closes with an alert command waiting.
    public mutating func closed() -> [Action] {
        defer { alertWaiting = false }
        return alertWaiting ? [.answerAlert(.failure("the kiosk's window closed"))] : []
    }

    // MARK: Performing the schedule

    mutating func perform(_ action: ScheduledAction, at now: Date) -> [Action] {
        switch pending {
        case .copyAfterErrorPage, .failed: pending = nil
        default: break
        }
        switch action {
        case .showPage, .showStart, .showAlert: stopRetrying()
        default: break
        }
        var actions: [Action] = action.event.map { [.record($0)] } ?? []
        switch action {
        case .skip(let index, let url):
            actions.append(.record(.proofOfPlay(PlayRecord(item: index, url: url.absoluteString, start: now, end: now,
                                                           outcome: .skipped))))
        case .showStart:
            actions += [.cancelPreload, .showStart]
        case .showAlert(let url):
            actions += [.cancelPreload, .showAlert(url, serial: alertSerial)]
        case .alertEnded:
            if alertWaiting { actions.append(.answerAlert(.failure("the alert ended before it was shown"))) }
            alertWaiting = false
        case .showPage(let index, let url) where canPreload:
            pending = .preload(item: index, url: url, copy: false)
            actions.append(.preload(item: index, url: url))
        case .showPage(let index, let url):
            pending = .load(item: index, url: url, started: false)
            actions += [.cancelPreload, .load(item: index, url: url)]
        case .reload:
            actions.append(.reload)
        case .display(let on, _):
            actions.append(.display(on: on))
        }
        return actions
    }

    /// Ends the open record of the item on screen.
    mutating func closeRecord(at end: Date) -> [Action] {
        guard let shown = onScreen else { return [] }
        onScreen = nil
        return [.record(.proofOfPlay(PlayRecord(item: shown.item, url: shown.url.absoluteString, start: shown.since, end: end,
                                                outcome: shown.outcome)))]
    }

    mutating func stopRetrying() {
        retryAt = nil
        retryingLive = false
    }

    /// The stale item's live page again, when the copy is still what is on screen and
    /// nothing else is under way.
    private mutating func retryLive(at now: Date) -> [Action] {
        retryAt = nil
        guard let item = onScreen, item.outcome == .stale, pending == nil, scheduler.alert == nil else { return [] }
        var actions: [Action] = [.record(.retryLoad(retries.attempts, of: item.url, trigger: .backoff))]
        actions += perform(.showPage(index: item.item, url: item.url), at: now)
        retryingLive = true
        return actions
    }

    /// The stale item's live page failed (again): the next attempt after the backoff.
    mutating func liveFailed(_ url: URL, at now: Date) -> [Action] {
        let delay = retries.failed()
        retryAt = now + delay
        return [.record(.retry(retries.attempts, of: url, in: delay, because: .stale))]
    }

    var isRetryingLive: Bool { retryingLive }

    mutating func liveRecovered(_ url: URL) -> [Action] {
        retries.succeeded()
        return [.record(.recovered(url))]
    }

    mutating func resetRetries() {
        retries.succeeded()
    }
}
