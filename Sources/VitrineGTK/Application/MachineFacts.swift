import Vitrine

/// The machine's renderer and media decoders as each window's first lines in the events
/// log. The renderer is known before the first view (its policy depends on it); the
/// decoders are listed on another thread and recorded on every window once known, so the
/// first window does not wait for GStreamer.
@MainActor
final class MachineFacts {
    typealias Codecs = Result<MediaCodecs, ProcessRendering.GStreamerError>
    private struct Weak { weak var container: WebContainer? }

    private var codecs: Codecs?
    private var waiting: [Weak] = []
    /// Once, when the decoders are known: the application's warnings about them.
    private let onListed: (Codecs) -> Void

    init(onListed: @escaping (Codecs) -> Void) {
        self.onListed = onListed
        ProcessRendering.listCodecs { [weak self] codecs in self?.listed(codecs) }
    }

    func record(on container: WebContainer) {
        container.record(.renderer(ProcessRendering.choice(for: container.configuration)))
        if let codecs { Self.record(codecs, on: container) } else { waiting.append(Weak(container: container)) }
    }

    /// Waits for the decoders if they are still being listed: a one-shot run that ends
    /// before then still logs them.
    func settle() {
        if codecs == nil { listed(ProcessRendering.codecs) }
    }

    private func listed(_ codecs: Codecs) {
        guard self.codecs == nil else { return }
        self.codecs = codecs
        onListed(codecs)
        for entry in waiting { if let container = entry.container { Self.record(codecs, on: container) } }
        waiting = []
    }

    private static func record(_ codecs: Codecs, on container: WebContainer) {
        if case .success(let list) = codecs { container.record(.mediaCodecs(list)) }
    }
}
