#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The schedule as a state machine over wall-clock time, with no timer of its own: the
/// adapter asks `nextDate(after:)`, sleeps until then, calls `takeDue(at:)` and performs
/// what it answers, and reports back how a page fared (`pageShown`, `pageFailed`) and what
/// came from outside (`wake`, `setDisplay`, `skipToNext`). Times are local to the injected
/// calendar, so tests drive a whole day — a daylight-saving day too — in microseconds.
public struct SignageScheduler: Sendable {
    public let schedule: Schedule
    public let calendar: LocalCalendar
    private let timetable: DisplayTimetable

    /// The playlist entry on screen, and since when.
    public private(set) var currentPage: Int?
    private var shownAt: Date
    /// The entry being loaded (not on screen yet); no rotation is due meanwhile.
    public private(set) var loadingPage: Int?
    /// The first entry this turn tried: a turn ends when every other entry failed.
    private var turnStartedFrom: Int?
    /// Per reload rule, the last instant it was considered (its start or its last reload).
    private var reloadCheckedAt: [Date]
    /// Whether the screen is on, as last decided; nil before the first decision.
    public private(set) var displayOn: Bool?
    /// Input woke the screen until then.
    private var wokenUntil: Date?

    public init(schedule: Schedule, calendar: LocalCalendar, now: Date) {
        self.schedule = schedule
        self.calendar = calendar
        timetable = DisplayTimetable(windows: schedule.displayWindows, calendar: calendar)
        shownAt = now
        reloadCheckedAt = schedule.reloads.map { _ in now }
        loadingPage = schedule.playlist.isEmpty ? nil : 0
        turnStartedFrom = loadingPage
    }

    // MARK: Asking

    /// When something is next due, or nil when nothing ever will be.
    public func nextDate(after now: Date) -> Date? {
        var dates: [Date] = []
        if loadingPage != nil, !startRequested { dates.append(now) }
        if let rotation = rotationDate { dates.append(rotation) }
        for (index, rule) in schedule.reloads.enumerated() {
            dates.append(nextReload(rule, after: reloadCheckedAt[index]))
        }
        if displayOn == nil, !schedule.displayWindows.isEmpty { dates.append(now) }
        if let change = timetable.nextChange(after: now) { dates.append(change.date) }
        if let wokenUntil { dates.append(wokenUntil) }
        return dates.min().map { max($0, now) }
    }

    /// Everything due at `now`, in order (display first, then the page, then reloads), with
    /// the state moved on as if it were done.
    public mutating func takeDue(at now: Date) -> [ScheduledAction] {
        var actions: [ScheduledAction] = []
        if let wokenUntil, wokenUntil <= now {
            self.wokenUntil = nil
            if !timetable.isOn(at: now), displayOn == true { actions.append(changeDisplay(false, "wake-ended")) }
        }
        if !schedule.displayWindows.isEmpty, wokenUntil == nil {
            let scheduled = timetable.isOn(at: now)
            if displayOn == nil || (displayOn != scheduled && lastDecisionBoundaryPassed(now)) {
                if displayOn != scheduled { actions.append(changeDisplay(scheduled, "schedule")) }
                displayOn = scheduled
            }
        }
        lastCheck = now
        if let loading = loadingPage, currentPage == nil, !startRequested {
            startRequested = true
            actions.append(.showPage(index: loading, url: schedule.playlist[loading].url))
        } else if let rotation = rotationDate, rotation <= now, let current = currentPage {
            actions.append(load((current + 1) % schedule.playlist.count, startingTurn: true))
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
        currentPage = index
        shownAt = now
        loadingPage = nil
        turnStartedFrom = nil
    }

    /// Entry `index` failed to load: the next entry is tried at once, unless every other
    /// one failed this turn (then the page on screen stays for its duration again).
    public mutating func pageFailed(_ index: Int, at now: Date) -> ScheduledAction? {
        guard loadingPage == index, !schedule.playlist.isEmpty else { return nil }
        loadingPage = nil
        let next = (index + 1) % schedule.playlist.count
        if next == turnStartedFrom || next == currentPage {
            turnStartedFrom = nil
            // Nothing loaded yet: the failed page (its error page) counts as shown, so the
            // playlist keeps turning and tries the others again.
            if currentPage == nil { currentPage = index }
            shownAt = now
            return nil
        }
        return load(next, startingTurn: false)
    }

    /// `vitrine ctl next`: the next entry now, whatever its time.
    public mutating func skipToNext(at now: Date) -> ScheduledAction? {
        guard schedule.playlist.count > 1 || currentPage == nil, !schedule.playlist.isEmpty else { return nil }
        let next = currentPage.map { ($0 + 1) % schedule.playlist.count } ?? 0
        return load(next, startingTurn: true)
    }

    /// Input while the screen is off: on for the wake duration.
    public mutating func wake(at now: Date) -> ScheduledAction? {
        guard displayOn == false else { return nil }
        wokenUntil = now + schedule.wakeDuration
        return changeDisplay(true, "input")
    }

    /// `vitrine ctl display on|off`: holds until the schedule's next change.
    public mutating func setDisplay(_ on: Bool, at now: Date) -> ScheduledAction? {
        wokenUntil = nil
        lastCheck = now
        guard displayOn != on else { return nil }
        return changeDisplay(on, "command")
    }

    // MARK: Private

    private var lastCheck: Date?
    private var startRequested = false

    /// A manual or woken state holds until the timetable itself changes after it was set.
    private func lastDecisionBoundaryPassed(_ now: Date) -> Bool {
        guard let lastCheck, let change = timetable.nextChange(after: lastCheck) else { return true }
        return change.date <= now
    }

    private var rotationDate: Date? {
        guard schedule.playlist.count > 1, loadingPage == nil, let current = currentPage else { return nil }
        return shownAt + schedule.playlist[current].duration
    }

    private mutating func load(_ index: Int, startingTurn: Bool) -> ScheduledAction {
        loadingPage = index
        if startingTurn { turnStartedFrom = index }
        return .showPage(index: index, url: schedule.playlist[index].url)
    }

    private mutating func changeDisplay(_ on: Bool, _ reason: String) -> ScheduledAction {
        displayOn = on
        return .display(on: on, reason: reason)
    }

    private func nextReload(_ rule: ReloadRule, after date: Date) -> Date {
        switch rule {
        case .every(let interval): date + interval
        case .at(let times): times.map { calendar.next($0, after: date) }.min() ?? .distantFuture
        }
    }
}

extension Date {
    static func + (date: Date, duration: Duration) -> Date { date.addingTimeInterval(duration.inSeconds) }
}
