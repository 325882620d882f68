import Vitrine

/// A window's side of the `update` capability: its granted pages' calls go to the process's
/// `Updater`, and they hear `update:available` (a newer version found by the periodic
/// check) and `update:progress` (`{received, total}` bytes of an install's download).
@MainActor
public final class UpdateFeature: WindowFeature {
    private weak var host: (any FeatureHost)?
    private var updater: Updater?

    public init() {}

    public func attach(to host: any FeatureHost) {
        self.host = host
        guard host.configuration.update.feed != nil else { return }
        let updater = Updater.shared(for: host.configuration)
        self.updater = updater
        updater.listen(self)
    }

    public func tearDown() {
        updater?.stopListening(self)
        updater = nil
    }

    /// Tells the granted pages of a newer version.
    func announce(_ offer: UpdateOffer) {
        guard let host, !host.isClosed else { return }
        host.emit("update:available", UpdateStrategy.announcement(offer), to: .granted(.update))
    }

    private func usableUpdater() throws(ScriptMessageError) -> Updater {
        guard let host, !host.isClosed else { throw ScriptMessageError("update: this window is closed") }
        guard let updater else { throw ScriptMessageError("update: the app's [update] names no feed") }
        return updater
    }
}

/// The `update` capability's service.
extension UpdateFeature: UpdateService {
    public func check() async throws(ScriptMessageError) -> UpdateOffer? {
        try await usableUpdater().check()
    }

    public func install() async throws(ScriptMessageError) {
        try await usableUpdater().install { [weak self] received, total in
            guard let host = self?.host, !host.isClosed else { return }
            host.emit("update:progress", .object(["received": .number(Double(received)), "total": .number(Double(total))]), to: .granted(.update))
        }
    }
}
