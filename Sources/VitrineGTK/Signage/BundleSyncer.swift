#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Dispatch
import Synchronization
import Vitrine

/// Keeps one playlist bundle synced: at start and every `sync-every` seconds a conditional
/// GET (`BundleDownload`), the core's decision (`BundleSyncState.decide`), and for a new
/// archive its check and unpacking (`BundleArchiveRules`, `BundleArchive`) into a new
/// version that the store then makes current (`BundleStore.activate`). Its files are served
/// as `app://bundle-<id>/` from the store's `current` folder, before any sync: a version on
/// disk shows at once, with or without the network. A failed sync keeps it.
///
/// Ownership: owned by its `ScheduleRunner`; holds the one loop task, cancelled in `stop()`
/// and `deinit`. The blocking work runs on its folder's serial queue and holds no reference
/// to the syncer; its report reaches `onReport` only while the syncer is alive and running.
@MainActor
final class BundleSyncer {
    let source: BundleSource
    private let job: BundleSyncJob
    private var loop: Task<Void, Never>?
    /// Each sync's report, and whether a new version became current.
    var onReport: (@MainActor (BundleSyncReport) -> Void)?

    init(source: BundleSource, dataFolder: URL) {
        self.source = source
        job = BundleSyncJob(source: source, store: BundleStore(dataFolder: dataFolder, source: source), rules: .standard)
        AppSchemeHandler.shared.serveBundle(host: source.host, from: job.store.current)
    }

    func start() {
        guard loop == nil else { return }
        let job = job, interval = source.syncInterval
        loop = Task { @MainActor [weak self] in
            while !Task.isCancelled {
                let report = await job.runOnQueue()
                // Not holding the syncer while it sleeps: it goes with its owner.
                guard !Task.isCancelled, let onReport = self?.onReport else { return }
                onReport(report)
                try? await Task.sleep(for: interval)
            }
        }
    }

    func stop() {
        loop?.cancel()
        loop = nil
    }

    isolated deinit {
        loop?.cancel()
    }
}

/// One sync of one bundle, off the main thread.
struct BundleSyncJob: Sendable {
    let source: BundleSource
    let store: BundleStore
    let rules: BundleArchiveRules

    /// One serial queue per bundle folder: one sync at a time per folder (a syncer replaced
    /// by a pushed config and its successor share it), while other bundles sync beside it, so
    /// a server that hangs delays its own bundle only.
    private static let queues = Mutex<[String: DispatchQueue]>([:])

    func runOnQueue() async -> BundleSyncReport {
        let queue = Self.queues.withLock { queues in
            if let queue = queues[store.folder.path] { return queue }
            let queue = DispatchQueue(label: "vitrine.bundle-sync.\(source.host)")
            queues[store.folder.path] = queue
            return queue
        }
        return await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: run()) }
        }
    }

    /// Downloads, decides, unpacks and swaps; the version on disk stays unless a new one is current.
    func run() -> BundleSyncReport {
        let url = source.archiveURL.absoluteString
        let state = store.loadState()
        do {
            try FileManager.default.createDirectory(at: store.folder, withIntermediateDirectories: true)
        } catch {
            return BundleSyncReport(url: url, outcome: .failed, version: state.version, reason: "cannot create '\(store.folder.path)'")
        }
        let download = store.folder.appendingPathComponent("download.part")
        defer { try? FileManager.default.removeItem(at: download) }
        let answer = BundleDownload(url: source.archiveURL, headers: state.requestHeaders, maxBytes: rules.maxArchiveBytes).run(into: download)
        switch state.decide(answer, expectedSHA256: source.sha256) {
        case .failed(let reason):
            return BundleSyncReport(url: url, outcome: .failed, version: state.version, reason: reason)
        case .unchanged(let next):
            try? store.saveState(next)
            return BundleSyncReport(url: url, outcome: .unchanged, version: next.version)
        case .install(let next):
            do {
                let version = try install(download, state: next)
                return BundleSyncReport(url: url, outcome: .updated, version: version)
            } catch {
                return BundleSyncReport(url: url, outcome: .failed, version: state.version, reason: "\(error)")
            }
        }
    }

    /// Unpacks the archive into a new version and makes it current; nothing of it stays on failure.
    private func install(_ file: URL, state: BundleSyncState) throws -> String {
        let archive = BundleArchive(file: file)
        let plan = try rules.plan(try archive.entries(), entry: source.entry).get()
        let version = try store.makeVersionFolder()
        do {
            try archive.unpack(plan, into: try BundleFolderWriter(folder: version.url, rules: rules))
            try store.activate(version.name, state: state)
        } catch {
            store.discard(version.name)
            throw error
        }
        return version.name
    }
}
