#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Alerts over the schedule: while one is shown the playlist, reloads and the screen's
/// hours wait; at its end (or `clearAlert`) the screen goes back to what the schedule says
/// now and the playlist resumes.
extension SignageScheduler {
    /// Shows `url` over everything for `duration` (a new alert replaces the one shown): the
    /// screen on, then the alert page.
    public mutating func startAlert(_ url: URL, for duration: Duration, at now: Date) -> [ScheduledAction] {
        if alert == nil { displayBeforeAlert = displayOn }
        alert = SignageAlert(url: url, startedAt: now, duration: duration)
        // A playlist page still loading is abandoned for the alert.
        interruptLoading()
        wokenUntil = nil
        var actions: [ScheduledAction] = []
        if displayOn == false { actions.append(changeDisplay(true, "alert")) }
        return actions + [.showAlert(url)]
    }

    /// `alert-clear`: the schedule back now; nothing when no alert is shown.
    public mutating func clearAlert(at now: Date) -> [ScheduledAction] {
        alert == nil ? [] : endAlert(at: now, reason: "cleared")
    }

    /// The alert page could not be shown (the chain refused it, its load failed at once).
    public mutating func alertRefused(at now: Date) -> [ScheduledAction] {
        alert == nil ? [] : endAlert(at: now, reason: "refused")
    }

    mutating func endAlert(at now: Date, reason: String = "expired") -> [ScheduledAction] {
        alert = nil
        var actions: [ScheduledAction] = [.alertEnded(reason: reason)]
        let scheduled = schedule.screenOnHours.isEmpty ? (displayBeforeAlert ?? true) : timetable.isOn(at: now)
        displayBeforeAlert = nil
        if displayOn != nil, displayOn != scheduled { actions.append(changeDisplay(scheduled, reason == "refused" ? "alert-refused" : "alert-ended")) }
        return actions + [resumeAfterAlert(at: now)]
    }
}
