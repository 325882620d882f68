#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
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

    /// The new version of a tarball update tells the old one, which waits for it, that its
    /// page loaded: the first finished load writes the beacon file, once.
    public func loadChanged(_ load: PaneLoad) {
        guard load.event == .finished, load.error == nil, let beacon = UpdateBeacon.take() else { return }
        _ = FileManager.default.createFile(atPath: beacon, contents: Data("loaded\n".utf8))
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
        try await usableUpdater().install(progress: { [weak self] received, total in
            guard let host = self?.host, !host.isClosed else { return }
            host.emit("update:progress", .object(["received": .number(Double(received)), "total": .number(Double(total))]), to: .granted(.update))
        }, record: { [weak self] event in
            guard let host = self?.host, !host.isClosed else { return }
            host.record(event)
            if case .native(.updateRolledBack, let detail) = event {
                host.emit("update:rolled-back", .object(["reason": .string(detail)]), to: .granted(.update))
            }
        })
    }
}

/// The beacon file this process, a tarball update's new version, writes once its page
/// loaded (`UpdateHandoff.beaconVariable`); taken once, and unset so that no program it
/// starts writes it.
@MainActor
enum UpdateBeacon {
    private static var taken = false

    static var isSet: Bool { getenv(UpdateHandoff.beaconVariable) != nil }

    static func take() -> String? {
        guard !taken, let value = getenv(UpdateHandoff.beaconVariable) else { return nil }
        taken = true
        let path = String(cString: value)
        unsetenv(UpdateHandoff.beaconVariable)
        return path.hasPrefix("/") ? path : nil
    }
}
