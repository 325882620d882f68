#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What to do when the page on screen says its media ended.
public enum MediaEndDecision: Sendable, Equatable {
    /// Not the media item on screen (another page, an alert, a looping item's stale report
    /// after the playlist moved on): nothing.
    case ignore
    /// Play it again: it loops, or it is the only item in its window (the playlist's turn
    /// would bring it back at once).
    case replay
    /// Its turn is over: this action shows the next item.
    case advance(ScheduledAction)
}

extension SignageScheduler {
    /// The page on screen, showing `url`, reported that its media ended. Only the media item
    /// on screen (no alert over it, not loading another) can end its turn early: a report
    /// from any other page changes nothing.
    public mutating func mediaEnded(showing url: URL, at now: Date) -> MediaEndDecision {
        guard alert == nil, loadingPage == nil, let index = currentPage, schedule.playlist.indices.contains(index) else { return .ignore }
        let entry = schedule.playlist[index]
        guard let media = entry.media, url.isSamePage(as: entry.url) else { return .ignore }
        if media.loops { return .replay }
        return skipToNext(at: now).map(MediaEndDecision.advance) ?? .replay
    }
}
