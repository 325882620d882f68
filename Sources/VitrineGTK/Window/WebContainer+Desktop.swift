import Vitrine

/// The capability strategies' desktop: each capability's service (`ClipboardService`,
/// `WindowService`…) is the attached feature that provides it, in its own folder.
extension WebContainer {
    /// The attached feature that is an `S`; nil once the window has gone, so that every
    /// capability refuses (fails closed) from then on. Strategies reach it through `WindowHost`.
    func service<S>(_ type: S.Type) -> S? {
        guard !isTornDown else { return nil }
        for feature in features.all { if let service = feature as? S { return service } }
        return nil
    }
}
