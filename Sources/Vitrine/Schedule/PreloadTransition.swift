#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One playlist item loading out of sight (`[schedule] preload`) before it replaces the
/// item on screen: it is swapped in only once its page has loaded *and* painted a frame,
/// so the screen never shows what lies between two items. Anything else — a failed or
/// refused load, no frame, no end in time — fails it, and the item on screen stays.
///
/// A value with no view and no timer: the adapter reports what its hidden view did and
/// performs the step each report answers. Once it has swapped or failed it is over, and
/// ignores what comes later (the hidden view's error page, a late frame).
public struct PreloadTransition: Sendable, Equatable {
    public enum Phase: Sendable, Equatable {
        /// Waiting for the item's own load to start (`started`), then to finish.
        case loading(started: Bool)
        /// Loaded; waiting for the page's first frame.
        case painting
        /// Swapped in.
        case swapped
        /// Dropped, and why.
        case failed(String)
    }

    /// What the adapter does next.
    public enum Step: Sendable, Equatable {
        /// Nothing yet.
        case wait
        /// Ask the hidden page for a frame (`painted` or `paintFailed` answers).
        case awaitPaint
        /// Show the hidden view in place of the current one, and release the old one.
        case swap
        /// Release the hidden view; the item on screen stays.
        case fail(String)
    }

    /// The playlist item and its page.
    public let item: Int
    public let url: URL
    public private(set) var phase: Phase = .loading(started: false)

    public init(item: Int, url: URL) {
        self.item = item
        self.url = url
    }

    /// Whether it has swapped or failed.
    public var isOver: Bool {
        switch phase {
        case .swapped, .failed: true
        case .loading, .painting: false
        }
    }

    /// A main-frame load started on the hidden view (only the item's own counts: an error
    /// page or another document is not the item).
    public mutating func loadStarted(_ started: URL?) -> Step {
        if case .loading(false) = phase, started?.isSamePage(as: url) == true { phase = .loading(started: true) }
        return .wait
    }

    /// The hidden view's load finished.
    public mutating func loadFinished() -> Step {
        guard case .loading(true) = phase else { return .wait }
        phase = .painting
        return .awaitPaint
    }

    /// The hidden page painted a frame.
    public mutating func painted() -> Step {
        guard case .painting = phase else { return .wait }
        phase = .swapped
        return .swap
    }

    /// The hidden page could not say it painted (its process went, the script failed).
    public mutating func paintFailed(_ reason: String) -> Step {
        guard case .painting = phase else { return .wait }
        return fail("no frame: \(reason)")
    }

    /// The load failed (network, TLS, the server's 5xx).
    public mutating func loadFailed(_ reason: String) -> Step {
        guard case .loading = phase else { return .wait }
        return fail(reason)
    }

    /// The navigation chain refused the item's page.
    public mutating func refused(_ reason: String) -> Step {
        guard !isOver else { return .wait }
        return fail("refused: \(reason)")
    }

    /// The item was not on screen within its time (a load that hangs, a process that died
    /// and came back too late).
    public mutating func timedOut(after limit: Duration) -> Step {
        guard !isOver else { return .wait }
        return fail("not painted within \(limit.components.seconds) s")
    }

    private mutating func fail(_ reason: String) -> Step {
        phase = .failed(reason)
        return .fail(reason)
    }
}
