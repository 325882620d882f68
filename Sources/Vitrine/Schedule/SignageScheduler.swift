#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The schedule as a state machine over wall-clock time, with no timer of its own: the
/// adapter asks `nextDate(after:)`, sleeps until then, calls `takeDue(at:)` and performs
/// what it answers, and reports back how a page fared (`pageShown`, `pageFailed`) and what
/// came from outside (`wake`, `setDisplay`, `skipToNext`, `startAlert`, `clearAlert`).
/// Times are local to the injected calendar, so tests drive a whole day — a
/// daylight-saving day too — in microseconds.
///
/// Item windows: an entry out of its window (`PlaylistEntry.window`) is skipped when its
/// turn comes (`.skip`). When no entry is in its window, the page on screen stays (none
/// yet: the start page stays) and the playlist is looked at again every minute, so the
/// first entry whose window opens is shown at that minute.
public struct SignageScheduler: Sendable {
    public let schedule: Schedule
    public let calendar: LocalCalendar
    let timetable: DisplayTimetable

    /// The playlist entry on screen, and since when.
    public private(set) var currentPage: Int?
    var shownAt: Date
    /// The entry being loaded (not on screen yet); no rotation is due meanwhile.
    public private(set) var loadingPage: Int?
    /// The first entry this turn tried: a turn ends when every other entry failed.
    private var turnStartedFrom: Int?
    /// Per reload rule, the last instant it was considered (its start or its last reload).
    private var reloadCheckedAt: [Date]
    /// Whether the screen is on, as last decided; nil before the first decision.
    public internal(set) var displayOn: Bool?
    /// Input woke the screen until then.
    var wokenUntil: Date?
    /// The playlist waits for a window to open: looked at again at the next minute.
    private var waitingForWindow = false
    /// The alert over everything, while one is shown.
    public internal(set) var alert: SignageAlert?
    /// The screen's state before the alert turned it on.
    var displayBeforeAlert: Bool?

    public init(schedule: Schedule, calendar: LocalCalendar, now: Date) {
        self.schedule = schedule
        self.calendar = calendar
        timetable = DisplayTimetable(hours: schedule.screenOnHours, calendar: calendar)
        shownAt = now
        reloadCheckedAt = schedule.reloads.map { _ in now }
        startPending = !schedule.playlist.isEmpty
    }

    // MARK: Asking

    /// When something is next due, or nil when nothing ever will be.
    public func nextDate(after now: Date) -> Date? {
        if let alert { return max(alert.until, now) }
        var dates: [Date] = []
        if startPending { dates.append(waitingForWindow ? Self.nextMinute(after: now) : now) }
        if let rotation = rotationDate { dates.append(rotation) }
        for (index, rule) in schedule.reloads.enumerated() {
            dates.append(nextReload(rule, after: reloadCheckedAt[index]))
        }
        if displayOn == nil, !schedule.screenOnHours.isEmpty { dates.append(now) }
        if let change = timetable.nextChange(after: now) { dates.append(change.date) }
        if let wokenUntil { dates.append(wokenUntil) }
        return dates.min().map { max($0, now) }
    }

    /// Everything due at `now`, in order (display first, then the page, then reloads), with
    /// the state moved on as if it were done. While an alert is shown only its end is due.
    public mutating func takeDue(at now: Date) -> [ScheduledAction] {
        if let alert {
            return alert.until <= now ? endAlert(at: now) : []
        }
        var actions: [ScheduledAction] = []
        if let wokenUntil, wokenUntil <= now {
            self.wokenUntil = nil
            if !timetable.isOn(at: now), displayOn == true { actions.append(changeDisplay(false, "wake-ended")) }
        }
        if !schedule.screenOnHours.isEmpty, wokenUntil == nil {
            let scheduled = timetable.isOn(at: now)
            if displayOn == nil || (displayOn != scheduled && lastDecisionBoundaryPassed(now)) {
                if displayOn != scheduled { actions.append(changeDisplay(scheduled, "schedule")) }
                displayOn = scheduled
            }
        }
        lastCheck = now
        if startPending {
            if let first = firstInWindow(from: 0, at: now) {
                startPending = false
                waitingForWindow = false
                actions.append(load(first, startingTurn: true))
            } else {
                waitingForWindow = true
            }
        } else if let rotation = rotationDate, rotation <= now, let current = currentPage {
            actions += rotate(from: current, at: now)
        }
        for (index, rule) in schedule.reloads.enumerated() where nextReload(rule, after: reloadCheckedAt[index]) <= now {
            reloadCheckedAt[index] = now
            if !actions.contains(.reload) { actions.append(.reload) }
        }
        return actions
    }

    // MARK: Reports

    /// Entry `index` loaded and is on screen.
    public mutating func pageShown(_ index: Int, at now: Date) {
        guard alert == nil else { return }
        currentPage = index
        shownAt = now
        loadingPage = nil
        turnStartedFrom = nil
    }

    /// Entry `index` failed to load: the next entry in its window is tried at once, unless
    /// every other one failed this turn (then the page on screen stays for its duration again).
    public mutating func pageFailed(_ index: Int, at now: Date) -> ScheduledAction? {
        guard loadingPage == index, !schedule.playlist.isEmpty else { return nil }
        loadingPage = nil
        let next = firstInWindow(from: index + 1, at: now)
        if next == nil || next == index || next == turnStartedFrom || next == currentPage {
            turnStartedFrom = nil
            // Nothing loaded yet: the failed page (its error page) counts as shown, so the
            // playlist keeps turning and tries the others again.
            if currentPage == nil { currentPage = index }
            shownAt = now
            return nil
        }
        return load(next!, startingTurn: false)
    }

    /// `vitrine ctl next`: the next entry in its window now, whatever its time.
    public mutating func skipToNext(at now: Date) -> ScheduledAction? {
        guard alert == nil, schedule.playlist.count > 1 || currentPage == nil,
              let next = firstInWindow(from: currentPage.map { $0 + 1 } ?? 0, at: now), next != currentPage
        else { return nil }
        startPending = false
        return load(next, startingTurn: true)
    }

    /// Input while the screen is off: on for the wake duration.
    public mutating func wake(at now: Date) -> ScheduledAction? {
        guard alert == nil, displayOn == false else { return nil }
        wokenUntil = now + schedule.wakeDuration
        return changeDisplay(true, "input")
    }

    /// `vitrine ctl display on|off`: holds until the schedule's next change.
    public mutating func setDisplay(_ on: Bool, at now: Date) -> ScheduledAction? {
        guard alert == nil else { return nil }
        wokenUntil = nil
        lastCheck = now
        guard displayOn != on else { return nil }
        return changeDisplay(on, "command")
    }

    // MARK: Private

    private var lastCheck: Date?
    /// The first page is still to be shown.
    private var startPending: Bool

    /// A manual or woken state holds until the timetable itself changes after it was set.
    private func lastDecisionBoundaryPassed(_ now: Date) -> Bool {
        guard let lastCheck, let change = timetable.nextChange(after: lastCheck) else { return true }
        return change.date <= now
    }

    /// Entries rotate when there are several, or when one has a window to leave.
    private var rotates: Bool {
        schedule.playlist.count > 1 || schedule.playlist.contains { !$0.window.isAlways }
    }

    private var rotationDate: Date? {
        guard rotates, loadingPage == nil, let current = currentPage else { return nil }
        return waitingForWindow ? Self.nextMinute(after: shownAt) : shownAt + schedule.playlist[current].duration
    }

    /// The turn after `current`: the next entry in its window (those out of theirs are
    /// skipped), the same entry staying on, or — none in its window — a wait.
    private mutating func rotate(from current: Int, at now: Date) -> [ScheduledAction] {
        let count = schedule.playlist.count
        let next = firstInWindow(from: current + 1, at: now)
        // Entries whose turn came while out of their window; once, not at each minute's look.
        var skips: [ScheduledAction] = []
        if !waitingForWindow {
            let reach = next.map { $0 > current ? $0 - current : $0 + count - current } ?? count
            skips = (1..<max(1, reach)).map { (current + $0) % count }.map { .skip(index: $0, url: schedule.playlist[$0].url) }
        }
        guard let next, next != current else {
            waitingForWindow = next == nil
            shownAt = now
            return skips
        }
        waitingForWindow = false
        return skips + [load(next, startingTurn: true)]
    }

    /// The first entry from `start` on (wrapping round) whose window holds `now`.
    func firstInWindow(from start: Int, at now: Date) -> Int? {
        let count = schedule.playlist.count
        guard count > 0 else { return nil }
        return (0..<count).lazy.map { (start + $0) % count }.first { schedule.playlist[$0].window.contains(now, calendar: calendar) }
    }

    mutating func load(_ index: Int, startingTurn: Bool) -> ScheduledAction {
        loadingPage = index
        if startingTurn { turnStartedFrom = index }
        return .showPage(index: index, url: schedule.playlist[index].url)
    }

    /// Back to the playlist after an alert: its first entry in its window from the one
    /// shown before, or the start page when it has none (the start page too, with no playlist).
    mutating func resumeAfterAlert(at now: Date) -> ScheduledAction {
        loadingPage = nil
        turnStartedFrom = nil
        shownAt = now
        guard !schedule.playlist.isEmpty else { return .showStart }
        guard let index = firstInWindow(from: currentPage ?? 0, at: now) else {
            startPending = true
            waitingForWindow = true
            currentPage = nil
            return .showStart
        }
        startPending = false
        waitingForWindow = false
        return load(index, startingTurn: true)
    }

    mutating func interruptLoading() {
        loadingPage = nil
        turnStartedFrom = nil
    }

    mutating func changeDisplay(_ on: Bool, _ reason: String) -> ScheduledAction {
        displayOn = on
        return .display(on: on, reason: reason)
    }

    private func nextReload(_ rule: ReloadRule, after date: Date) -> Date {
        switch rule {
        case .every(let interval): date + interval
        case .at(let times): times.map { calendar.next($0, after: date) }.min() ?? .distantFuture
        }
    }

    /// The next whole minute: windows are minute-precise (UTC offsets are whole minutes).
    static func nextMinute(after date: Date) -> Date {
        Date(timeIntervalSince1970: ((date.timeIntervalSince1970 / 60).rounded(.down) + 1) * 60)
    }
}

extension Date {
    static func + (date: Date, duration: Duration) -> Date { date.addingTimeInterval(duration.inSeconds) }
}
