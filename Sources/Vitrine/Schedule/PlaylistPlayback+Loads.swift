#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How the slot's loads went: the view's own load events, a preload's end, a refusal, a
/// copy shown. A failure is settled on the next turn of the adapter's loop (`settle`),
/// once the failed load's own handling (its error page) went first.
extension PlaylistPlayback {
    /// How a preload (`preload` or `preloadCopy`) ended.
    public enum PreloadEnd: Sendable, Equatable {
        /// It loaded, painted and replaced the view on screen.
        case swapped
        /// It failed; the view on screen stays.
        case failed
    }

    /// A load event of the view on screen (`url`: the view's address then).
    public mutating func viewLoadChanged(_ event: ContainerEvent.LoadEvent, _ url: URL?, at now: Date,
                                         hasCopy: Bool) -> [Action] {
        if case let .copyAfterErrorPage(item, itemURL) = pending {
            guard event == .finished || event == .failed else { return [] }
            pending = nil
            return [.showCopy(item: item, url: itemURL)]
        }
        guard case let .load(item, itemURL, started) = pending else {
            // The live page on screen failed to load again (a reload) and has a copy: it goes
            // stale. Once: more failures while that is settled are not more turns.
            guard event == .failed, pending == nil, let shown = onScreen, shown.outcome == .shown, url?.isSamePage(as: shown.url) == true,
                  hasCopy else { return [] }
            return failed(shown.item, shown.url, at: now)
        }
        switch event {
        case .started where !started && url?.isSamePage(as: itemURL) == true:
            pending = .load(item: item, url: itemURL, started: true)
            return []
        case .finished where started:
            pending = nil
            return shown(item, itemURL, at: now)
        case .failed where started:
            return failed(item, itemURL, at: now)
        default:
            return []
        }
    }

    /// The navigation chain refused item `item`'s page (reported after the decision's turn).
    public mutating func refused(_ item: Int, _ url: URL, at now: Date) -> [Action] {
        guard case let .load(pendingItem, pendingURL, _) = pending, pendingItem == item, pendingURL == url else { return [] }
        return failed(item, url, at: now)
    }

    /// The preload of item `item` ended (reported after the hidden view's failure was handled).
    public mutating func preloadEnded(_ item: Int, _ url: URL, _ end: PreloadEnd, at now: Date) -> [Action] {
        guard case let .preload(pendingItem, pendingURL, copy) = pending, pendingItem == item, pendingURL == url else { return [] }
        pending = nil
        switch (end, copy) {
        case (.swapped, false): return shown(item, url, at: now)
        case (.swapped, true): return putOnScreen(item, url, .stale, at: now) + liveFailed(url, at: now)
        case (.failed, false): return failed(item, url, at: now)
        case (.failed, true): return skip(failed: item, url, at: now)
        }
    }

    /// Whether the kept copy a `showCopy` asked for is shown (false: none could be read).
    public mutating func copyShown(_ item: Int, _ url: URL, _ shown: Bool, at now: Date) -> [Action] {
        shown ? putOnScreen(item, url, .stale, at: now) + liveFailed(url, at: now) : skip(failed: item, url, at: now)
    }

    // MARK: Private

    private mutating func shown(_ item: Int, _ url: URL, at now: Date) -> [Action] {
        var actions: [Action] = []
        if isRetryingLive, onScreen?.item == item, onScreen?.url == url { actions += liveRecovered(url) }
        actions += putOnScreen(item, url, .shown, at: now)
        let isMedia = schedule.playlist.indices.contains(item) && schedule.playlist[item].media != nil
        return actions + [.keep(url: url, isMedia: isMedia)]
    }

    /// Item `item` is on screen, live or stale: the last item's record closes, this one's opens.
    private mutating func putOnScreen(_ item: Int, _ url: URL, _ outcome: PlayRecord.Outcome, at now: Date) -> [Action] {
        stopRetrying()
        resetRetries()
        var actions = closeRecord(at: now)
        let action: ContainerEvent.NativeAction = outcome == .stale ? .schedulePageStale : .schedulePageShown
        actions.append(.record(.native(action: action, detail: "\(item) \(url.absoluteString)")))
        onScreen = OnScreen(item: item, url: url, since: now, outcome: outcome)
        scheduler.pageShown(item, at: now)
        return actions
    }

    /// Item `item` could not be shown live: its line now, the rest once settled.
    private mutating func failed(_ item: Int, _ url: URL, at now: Date) -> [Action] {
        pending = nil
        // A failed attempt at the stale item's live page: its copy stays on screen.
        if isRetryingLive, let shown = onScreen, shown.item == item, shown.url == url, shown.outcome == .stale {
            stopRetrying()
            return liveFailed(url, at: now)
        }
        pending = .failed(item: item, url: url)
        return [.record(.native(action: .schedulePageFailed, detail: "\(item) \(url.absoluteString)")), .settle]
    }

    /// The page of the failed item waiting for `settle`.
    public var failedItemURL: URL? {
        if case let .failed(_, url) = pending { url } else { nil }
    }

    /// The failed item's turn goes on after its failure was handled (`hasCopy`: its page has
    /// a kept copy; `viewIsLoading`: the view on screen loads, as a failed page's error page
    /// does): its copy (out of sight where preload is on, in the view once the error page
    /// ended otherwise), or the next item at once.
    public mutating func settle(at now: Date, hasCopy: Bool, viewIsLoading: Bool) -> [Action] {
        guard case let .failed(item, url) = pending else { return [] }
        pending = nil
        guard hasCopy else { return skip(failed: item, url, at: now) }
        if canPreload {
            pending = .preload(item: item, url: url, copy: true)
            return [.preloadCopy(item: item, url: url)]
        }
        if viewIsLoading {
            pending = .copyAfterErrorPage(item: item, url: url)
            return []
        }
        return [.showCopy(item: item, url: url)]
    }

    /// The failed item's turn ends (proof of play `failed`); the next one's begins.
    private mutating func skip(failed item: Int, _ url: URL, at now: Date) -> [Action] {
        var actions: [Action] = [.record(.proofOfPlay(PlayRecord(item: item, url: url.absoluteString, start: now, end: now,
                                                                 outcome: .failed)))]
        if let next = scheduler.pageFailed(item, at: now) { actions += perform(next, at: now) }
        return actions
    }
}
