#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

/// What a `LoadRetrier` tries a page again through: the window's pane (`RecoveryMonitor`:
/// in the view). A playlist's stale item is retried by its `PlaylistPlayback` instead.
@MainActor
protocol LoadRetryTarget: AnyObject {
    /// Whether `url` is still this retrier's to try: nothing else took its place on screen
    /// (`standIn`: what the retrier was told shows in its place meanwhile).
    func isStillRetrying(_ url: URL, standIn: URL?) -> Bool
    /// Starts the attempt at `url`.
    func loadAgain(_ url: URL)
    func record(_ event: ContainerEvent)
}

/// Tries a page that could not be shown again, and never gives up on it: on
/// `RetrySchedule`'s backoff, and at once when the network comes back (`NetworkWatch`,
/// where its owner passes it on). The error page (or a kept copy) shows meanwhile; only
/// this object starts the attempts, so each is one decision and one line in the events
/// log (`ContainerEvent.retry`, `.retryLoad`, `.recovered`: one format for every page
/// retried).
///
/// While a stand-in is on screen (`standIn`, a kept copy's address), it stays there until
/// an attempt loads the live page.
///
/// Owned by its target (a pane's `RecoveryMonitor`), which it holds
/// weakly; its timer is cancelled on tear-down and when it goes.
@MainActor
final class LoadRetrier {
    private weak var target: LoadRetryTarget?
    private var schedule = RetrySchedule()
    private var timer: Task<Void, Never>?
    /// The page being retried: its stand-in or error page is shown, or its next attempt is loading.
    private var pending: URL?
    /// The address shown in the pending page's place (its kept copy), if not an error page.
    private var standIn: URL?

    func attach(to target: LoadRetryTarget) {
        self.target = target
    }

    /// `url` failed: counts the failure, logs it and schedules the next attempt. Answers
    /// the delay, for the error page's countdown.
    @discardableResult
    func failed(_ url: URL, because reason: RetryReason, standIn: URL? = nil) -> Duration {
        let delay = schedule.failed()
        pending = url
        self.standIn = standIn
        target?.record(.retry(schedule.attempts, of: url, in: delay, because: reason))
        timer?.cancel()
        timer = Task { @MainActor [weak self] in
            try? await Task.sleep(for: delay)
            guard !Task.isCancelled else { return }
            self?.attempt(trigger: .backoff)
        }
        return delay
    }

    /// GLib's network monitor reports the network available: an attempt now, when one
    /// is waiting (not while one is loading).
    func networkAvailable() {
        guard pending != nil, timer != nil else { return }
        attempt(trigger: .network)
    }

    /// A load finished. While an attempt is loading (no timer: a failure would have set
    /// one before its load finished), it is the page itself: recovered.
    func loadFinished() {
        guard let url = pending, timer == nil else { return }
        recovered(url)
    }

    /// `url`, being retried, loaded: the next failure waits the first delay again.
    func recovered(_ url: URL) {
        pending = nil
        standIn = nil
        schedule.succeeded()
        target?.record(.recovered(url))
    }

    func cancel() {
        timer?.cancel()
        timer = nil
    }

    /// Someone else tries the page (the schedule's runner), or the attempt is under way
    /// elsewhere: no attempt, no `recovered`. The count of failures stays.
    func forget() {
        cancel()
        pending = nil
        standIn = nil
    }

    /// Forgets the page and starts the count again (another page is on screen).
    func reset() {
        forget()
        schedule.succeeded()
    }

    isolated deinit {
        timer?.cancel()
    }

    private func attempt(trigger: RetryTrigger) {
        cancel()
        guard let target, let url = pending else { return }
        // Someone went elsewhere meanwhile (the remote control, a person, the schedule):
        // that page is not this retrier's to replace.
        guard target.isStillRetrying(url, standIn: standIn) else {
            pending = nil
            return
        }
        target.record(.retryLoad(schedule.attempts, of: url, trigger: trigger))
        target.loadAgain(url)
    }
}
