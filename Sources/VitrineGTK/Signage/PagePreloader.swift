import CWebKitGTK
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

/// `[schedule] preload`: a playlist page (or its kept copy, when its live load failed)
/// loading in a second pane that lies *under* the one on screen in the stage's overlay (`PaneStage`).
/// Under, not hidden: a hidden (unmapped) view is paused by WebKit and would never paint; a
/// covered one renders like a visible one. It
/// takes the old one's place (the stage's `endPreload`) once the core's
/// `PreloadTransition` says so: its own load finished and four animation frames ran (its
/// first frame painted and handed to the window).
///
/// The pane is made like every other (`WebPane`): the same chain, strategies, user
/// scripts, recovery and, in a kiosk, the same guard (lockdown).
///
/// Ownership: owned by its window's stage (`preloaders`) until it swaps or fails; holds its pane
/// and its deadline. `finish` is told the end once; a preloader cancelled or dropped tells
/// it nothing (its turn was replaced). Callbacks find it through weak references.
@MainActor
final class PagePreloader {
    enum Outcome: Equatable {
        case shown
        case failed(String)
    }

    /// The longest a page may take to load and paint out of sight.
    static let timeLimit: Duration = .seconds(30)
    /// The animation frames a loaded page runs before it is swapped in (`awaitPaint`).
    static let paintFrames = 4

    let pane: WebPane
    /// Whether it loads the item's kept copy (`PageSnapshotKeeper`) rather than its live page.
    let isCopy: Bool
    private weak var container: WebContainer?
    private(set) var transition: PreloadTransition
    private var finish: (@MainActor (Outcome) -> Void)?
    private var deadline: Task<Void, Never>?

    init(container: WebContainer, item: Int, url: URL, copy: Bool = false, finish: @escaping @MainActor (Outcome) -> Void) {
        self.container = container
        isCopy = copy
        transition = PreloadTransition(item: item, url: url)
        self.finish = finish
        pane = WebPane(container: container)
    }

    /// Starts the load (the pane is in place under the current one).
    func start() {
        let url = transition.url
        let limit = Self.timeLimit
        deadline = Task { @MainActor [weak self] in
            try? await Task.sleep(for: limit)
            guard !Task.isCancelled, let self else { return }
            self.perform(self.transition.timedOut(after: limit))
        }
        if isCopy { return startCopy() }
        if let refusal = pane.configuration.refusal(ofLoad: url) {
            pane.record(.navigation(url: url.absoluteString, handler: refusal.handler, policy: refusal.policy,
                                    navigationType: .other, target: .currentView, phase: .request))
            return later { $0.perform($0.transition.refused(refusal.handler)) }
        }
        pane.load(url) { [weak self] outcome in
            guard let self else { return }
            switch outcome {
            case .decided(let decision) where decision.policy != .allow:
                // Not from inside the navigation's own decision.
                self.later { $0.perform($0.transition.refused(decision.handler)) }
            case .abandoned(let reason):
                self.later { $0.perform($0.transition.refused(reason)) }
            case .decided:
                break
            }
        }
    }

    /// The item's kept copy, shown in the hidden pane like a live page (its own address is
    /// the load that counts); none that can be read fails the preload.
    private func startCopy() {
        guard let address = pane.recovery.showCopy(of: transition.url, retried: false) else {
            return later { $0.perform($0.transition.refused("no kept copy can be shown")) }
        }
        transition = PreloadTransition(item: transition.item, url: address)
    }

    /// A load event of the preloaded pane.
    func loadChanged(_ event: ContainerEvent.LoadEvent, _ url: URL?, error: String?) {
        switch event {
        case .started: perform(transition.loadStarted(url))
        case .finished: perform(transition.loadFinished())
        // Failed now, so the error page the pane's recovery shows next never counts as the
        // item (nor do its retries); ended after this turn, once that handling is over.
        case .failed:
            let step = transition.loadFailed(error ?? "load failed")
            later { $0.perform(step) }
        default: break
        }
    }

    /// Drops the preload without a word (the container replaces or closes it).
    func cancel() {
        finish = nil
        deadline?.cancel()
        deadline = nil
    }

    private func perform(_ step: PreloadTransition.Step) {
        switch step {
        case .wait:
            break
        case .awaitPaint:
            awaitPaint()
        case .swap:
            end(.shown)
        case .fail(let reason):
            end(.failed(reason))
        }
    }

    /// `paintFrames` animation frames in Vitrine's script world (where the page cannot
    /// replace `requestAnimationFrame`). The first runs before a frame is painted, the
    /// second after it; but the painted frame reaches the window (WebKit's UI process) a
    /// frame or two later, and a view swapped in before then shows its empty background
    /// for a frame (after two: about one transition in seven under Xvfb,
    /// `benchmarks/transitions.py`).
    private func awaitPaint() {
        let view = pane.webView
        let body = "return await new Promise(r => { let n = \(Self.paintFrames); "
            + "const frame = () => --n > 0 ? requestAnimationFrame(frame) : r(true); requestAnimationFrame(frame); });"
        AsyncCallback.call({ callback, data in
            webkit_web_view_call_async_javascript_function(view, body, -1, nil, ScriptBridge.worldName, nil, nil, callback, data)
        }, finish: { [weak self] _, result in
            var error: UnsafeMutablePointer<GError>?
            let value = webkit_web_view_call_async_javascript_function_finish(view, result, &error)
            if let value { g_object_unref(gptr(value)) }
            let failure = value == nil ? GLibError.take(&error, "the frame script failed").description : nil
            guard let self else { return }
            self.perform(failure.map { self.transition.paintFailed($0) } ?? self.transition.painted())
        })
    }

    private func end(_ outcome: Outcome) {
        deadline?.cancel()
        deadline = nil
        guard let finish, let container else { return }
        self.finish = nil
        container.stage.endPreload(self, swapping: outcome == .shown)
        finish(outcome)
    }

    /// Runs `work` on the next turn of the main loop, if the preloader is still there.
    private func later(_ work: @escaping @MainActor (PagePreloader) -> Void) {
        Task { @MainActor [weak self] in
            guard let self else { return }
            work(self)
        }
    }

    isolated deinit {
        deadline?.cancel()
    }
}
