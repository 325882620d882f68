import Vitrine

/// The machine's renderer and media decoders as each window's first lines in the events
/// log. The renderer is known before the first view (its policy depends on it); the
/// decoders are listed on another thread once a window's page has loaded (or a few seconds
/// after the first window, whichever comes first) and recorded on every window then: the
/// start of the first page does not share the CPU with GStreamer reading its registry.
@MainActor
final class MachineFacts {
    typealias Codecs = Result<MediaCodecs, ProcessRendering.GStreamerError>
    private struct Weak { weak var container: WebContainer? }

    private var codecs: Codecs?
    private var listing = false
    private var waiting: [Weak] = []
    private var afterListed: [@MainActor () -> Void] = []
    /// Once, when the decoders are known: the application's warnings about them.
    private let onListed: (Codecs) -> Void

    init(onListed: @escaping (Codecs) -> Void) {
        self.onListed = onListed
    }

    func record(on container: WebContainer) {
        container.record(.renderer(ProcessRendering.choice(for: container.configuration)))
        if let codecs { return Self.record(codecs, on: container) }
        waiting.append(Weak(container: container))
        container.attach(PageLoaded { [weak self] in self?.startListing() })
        // A page that never loads (its start refused, say) still gets the list.
        Task { @MainActor [weak self] in
            try? await Task.sleep(for: .seconds(3))
            self?.startListing()
        }
    }

    /// Runs `work` once the decoders are listed (now, if they are).
    func afterListing(_ work: @escaping @MainActor () -> Void) {
        if codecs == nil { afterListed.append(work) } else { work() }
    }

    /// Waits for the decoders if they are still being listed: a one-shot run that ends
    /// before then still logs them.
    func settle() {
        if codecs == nil { listed(ProcessRendering.codecs) }
    }

    private func startListing() {
        guard !listing, codecs == nil else { return }
        listing = true
        ProcessRendering.listCodecs { [weak self] codecs in self?.listed(codecs) }
    }

    private func listed(_ codecs: Codecs) {
        guard self.codecs == nil else { return }
        self.codecs = codecs
        onListed(codecs)
        for entry in waiting { if let container = entry.container { Self.record(codecs, on: container) } }
        waiting = []
        let work = afterListed
        afterListed = []
        for run in work { run() }
    }

    private static func record(_ codecs: Codecs, on container: WebContainer) {
        if case .success(let list) = codecs { container.record(.mediaCodecs(list)) }
    }
}

/// Tells once that a page of its window has loaded.
@MainActor
private final class PageLoaded: WindowFeature {
    private var onLoaded: (@MainActor () -> Void)?

    init(_ onLoaded: @escaping @MainActor () -> Void) {
        self.onLoaded = onLoaded
    }

    func loadChanged(_ load: PaneLoad) {
        guard load.event == .finished, let onLoaded else { return }
        self.onLoaded = nil
        onLoaded()
    }

    func tearDown() {
        onLoaded = nil
    }
}
