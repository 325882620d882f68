#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

/// Tries a page that could not be shown again, and never gives up on it: on
/// `RetrySchedule`'s backoff, and at once when the network comes back (`NetworkWatch`).
/// The error page shows meanwhile and counts down to the scheduled attempt; only this
/// object reloads, so each attempt is one decision and one line in the events log:
///
/// - `retry` "N URL in S s (KIND)": failure N of URL; the next attempt is in S seconds;
/// - `retry-load` "N URL (backoff|network)": the attempt after failure N starts, and why now;
/// - `recovered` "URL": the page loaded; the next failure starts the schedule again.
///
/// While its kept copy stands in for the page (`standIn`, the copy's address), the copy
/// stays on screen until an attempt loads the live page.
///
/// Owned by the pane's `RecoveryMonitor`; its timer is cancelled on tear-down and when
/// it goes.
@MainActor
final class LoadRetrier {
    private weak var pane: WebPane?
    private var schedule = RetrySchedule()
    private var timer: Task<Void, Never>?
    /// The page being retried: its error page is shown, or its next attempt is loading.
    private var pending: URL?
    /// The address shown in the pending page's place (its kept copy), if not an error page.
    private var standIn: URL?

    func attach(to pane: WebPane) {
        self.pane = pane
    }

    /// `url` failed: counts the failure, logs it and schedules the next attempt. Answers
    /// the delay, for the error page's countdown.
    func failed(_ url: URL, because failure: LoadFailure, standIn: URL? = nil) -> Duration {
        let delay = schedule.failed()
        pending = url
        self.standIn = standIn
        pane?.record(.native(action: .retry, detail:
            "\(schedule.attempts) \(url.absoluteString) in \((delay.inSeconds * 10).rounded() / 10) s (\(failure.label))"))
        timer?.cancel()
        timer = Task { @MainActor [weak self] in
            try? await Task.sleep(for: delay)
            guard !Task.isCancelled else { return }
            self?.attempt(trigger: "backoff")
        }
        return delay
    }

    /// GLib's network monitor reports the network available: an attempt now, when one
    /// is waiting (not while one is loading).
    func networkAvailable() {
        guard pending != nil, timer != nil else { return }
        attempt(trigger: "network")
    }

    /// A load finished. While an attempt is loading (no timer: a failure would have set
    /// one before its load finished), it is the page itself: recovered.
    func loadFinished() {
        guard let url = pending, timer == nil else { return }
        pending = nil
        schedule.succeeded()
        pane?.record(.native(action: .recovered, detail: url.absoluteString))
    }

    func cancel() {
        timer?.cancel()
        timer = nil
    }

    /// Someone else tries the page (the schedule's runner): no attempt, no `recovered`.
    func forget() {
        cancel()
        pending = nil
        standIn = nil
    }

    isolated deinit {
        timer?.cancel()
    }

    private func attempt(trigger: String) {
        cancel()
        guard let pane, !pane.isTornDown, let url = pending else { return }
        // Someone went elsewhere meanwhile (the remote control, a person): that page is
        // not this retrier's to replace.
        guard let current = pane.currentURL, current == url || current == standIn else {
            pending = nil
            return
        }
        pane.record(.native(action: .retryLoad, detail: "\(schedule.attempts) \(url.absoluteString) (\(trigger))"))
        pane.load(url)
    }
}
