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
/// skips to the next page. Pages load in the one view: the old page stays on screen until
/// WebKit commits the new one.
///
/// Ownership: owned by its container; holds the one timer (a task, cancelled on every
/// re-arm, on `stop()` and in `deinit`) and the cover. Every callback checks the weak
/// container, so nothing runs once the container is gone.
@MainActor
final class ScheduleRunner {
    private weak var container: WebContainer?
    private var scheduler: SignageScheduler
    private let now: @MainActor () -> Date
    private var timer: Task<Void, Never>?
    let cover: DisplayCover
    /// The playlist page being loaded, once its load has started.
    private var loading: (index: Int, url: URL, started: Bool)?

    init(container: WebContainer, schedule: Schedule, calendar: LocalCalendar = LocalCalendar(),
         now: @escaping @MainActor () -> Date = { Date() }) {
        self.container = container
        self.now = now
        scheduler = SignageScheduler(schedule: schedule, calendar: calendar, now: now())
        cover = DisplayCover(container: container)
        cover.onInput = { [weak self] in self?.input() }
    }

    /// Whether the screen is on, as the schedule last decided.
    var isDisplayOn: Bool { !cover.isShown }

    /// Performs what is due now (the first playlist page, the screen's state) and arms the timer.
    func start() {
        runDue()
    }

    func stop() {
        timer?.cancel()
        timer = nil
    }

    /// `vitrine ctl next`.
    func next() {
        guard let action = scheduler.skipToNext(at: now()) else { return }
        perform(action)
        arm()
    }

    /// `vitrine ctl display on|off`.
    func display(_ on: Bool) {
        guard let action = scheduler.setDisplay(on, at: now()) else { return }
        perform(action)
        arm()
    }

    // MARK: Load reports

    /// A load event of the container (`started`, `finished`, `failed`).
    func loadChanged(_ event: ContainerEvent.LoadEvent, _ url: URL?) {
        guard let page = loading else { return }
        switch event {
        case .started where !page.started && url?.isSamePage(as: page.url) == true:
            loading?.started = true
        case .finished where page.started:
            loading = nil
            scheduler.pageShown(page.index, at: now())
            arm()
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

    // MARK: Private

    private func failed(_ page: (index: Int, url: URL, started: Bool)) {
        loading = nil
        container?.record(.native(action: .schedulePageFailed, detail: "\(page.index) \(page.url.absoluteString)"))
        let next = scheduler.pageFailed(page.index, at: now())
        // The next page after this turn of the main loop: the failed load's own handling
        // (its error page) goes first, and is then replaced.
        Task { @MainActor [weak self] in
            guard let self else { return }
            if let next { self.perform(next) }
            self.arm()
        }
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

    private func perform(_ action: ScheduledAction) {
        guard let container, !container.isTornDown else { return }
        container.record(action.event)
        switch action {
        case .showPage(let index, let url):
            let page = (index: index, url: url, started: false)
            loading = page
            container.startLoading(url) { [weak self] outcome in
                if case .decided(let decision) = outcome, decision.policy != .allow { self?.refused(page) }
            }
        case .reload:
            container.reload()
        case .display(let on, _):
            on ? cover.hide() : cover.show()
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
    }
}
