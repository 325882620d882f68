#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import CWebKitGTK
import Vitrine
import VitrineSigning

/// The app's signed updates, one per process: checks `[update] feed` (now, or every
/// `check-every`, telling the windows' `UpdateFeature`s of a newer version), downloads an
/// update capped at the manifest's size and hashed on the way, and hands a verified
/// `.deb`/`.rpm` to the installer. Decisions are the core's (`UpdateFeedCheck`,
/// `UpdateDownloadCheck`); this only moves bytes and starts the installer.
@MainActor
public final class Updater {
    let settings: UpdateSettings
    let appID: String
    /// The running program (`/proc/self/exe`), and its folder.
    let programPath: String
    var programFolder: String { URL(fileURLWithPath: programPath).deletingLastPathComponent().path }
    let workFolder: URL
    private var timer: guint = 0
    private var listeners: [WeakListener] = []
    var installing = false
    var installer: ChildProcess?

    private struct WeakListener {
        weak var feature: UpdateFeature?
    }

    private static var current: Updater?

    /// The process's updater for `configuration` (a new one when its settings changed).
    static func shared(for configuration: Configuration) -> Updater {
        if let current, current.settings == configuration.update, current.appID == configuration.applicationID { return current }
        current?.stopTimer()
        let made = Updater(settings: configuration.update, appID: configuration.applicationID,
                           programPath: Self.programPath(), workFolder: configuration.appDataDirectory.appendingPathComponent("updates"))
        current = made
        return made
    }

    init(settings: UpdateSettings, appID: String, programPath: String, workFolder: URL) {
        self.settings = settings
        self.appID = appID
        self.programPath = programPath
        self.workFolder = workFolder
    }

    isolated deinit {
        stopTimer()
    }

    static func programPath() -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return "" }
        return String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    var format: UpdateFormat {
        settings.installedFormat(programFolder: programFolder, debianSystem: FileSystem.isRegularFile("/etc/debian_version"))
    }

    /// A window's feature hears of newer versions from the periodic check, which runs while
    /// a window listens.
    func listen(_ feature: UpdateFeature) {
        listeners.removeAll { $0.feature == nil }
        listeners.append(WeakListener(feature: feature))
        startTimer()
    }

    func stopListening(_ feature: UpdateFeature) {
        listeners.removeAll { $0.feature == nil || $0.feature === feature }
        if listeners.isEmpty { stopTimer() }
    }

    /// Whether the periodic check runs.
    var checksPeriodically: Bool { timer != 0 }

    // MARK: Checking

    /// Why there is no offer: the feed refused (`notNewer` when the app is up to date), or
    /// no feed could be checked at all.
    enum FetchFailure: Error {
        case refused(UpdateRefusal)
        case unusable(ScriptMessageError)

        var scriptMessageError: ScriptMessageError {
            switch self {
            case .refused(let refusal): refusal.scriptMessageError
            case .unusable(let error): error
            }
        }
    }

    /// The verified offer, or why there is none.
    func fetchOffer() async -> Result<UpdateOffer, FetchFailure> {
        guard let feed = settings.feed, let key = settings.publicKey else {
            return .failure(.unusable(ScriptMessageError("update: the app's [update] names no feed and public-key")))
        }
        guard let running = settings.running(programFolder: programFolder) else {
            return .failure(.unusable(ScriptMessageError("update: this app's version is unknown (vitrine bundle writes it into the file version beside the program)")))
        }
        let check = UpdateFeedCheck(appID: appID, running: running, channel: settings.channel, publicKey: key,
                                    format: format, signatureIsValid: Ed25519.isValid)
        let body = ByteSink()
        let failure = await withCheckedContinuation { (continuation: CheckedContinuation<String?, Never>) in
            HTTPStreamRead.start(feed, piece: { piece in
                body.bytes.append(contentsOf: piece)
                return body.bytes.count <= UpdateFeedCheck.feedLimit
            }, done: { continuation.resume(returning: $0) })
        }
        if let failure, body.bytes.count <= UpdateFeedCheck.feedLimit {
            return .failure(.unusable(ScriptMessageError("update: the feed \(feed.absoluteString) could not be read: \(failure)")))
        }
        return check.verify(body.bytes).mapError(FetchFailure.refused)
    }

    func check() async throws(ScriptMessageError) -> UpdateOffer? {
        switch await fetchOffer() {
        case .success(let offer): return offer
        case .failure(.refused(.notNewer)): return nil
        case .failure(let failure): throw failure.scriptMessageError
        }
    }

    private func startTimer() {
        guard timer == 0, settings.feed != nil, settings.checkEvery > .zero else { return }
        let seconds = guint(max(1, min(settings.checkEvery.components.seconds, Int64(UInt32.max / 2))))
        let context = Unmanaged.passRetained(SignalContext(owner: self)).toOpaque()
        timer = g_timeout_add_seconds_full(G_PRIORITY_DEFAULT, seconds, { data in
            onMainLoop(data) { data in
                guard let owner = SignalContext.owner(data, as: Updater.self) else { return gboolean(0) } // G_SOURCE_REMOVE
                owner.periodicCheck()
                return gboolean(1)
            }
        }, context, { data in
            guard let data else { return }
            Unmanaged<SignalContext>.fromOpaque(data).release()
        })
    }

    private func stopTimer() {
        if timer != 0 { g_source_remove(timer) }
        timer = 0
    }

    private func periodicCheck() {
        Task { @MainActor [weak self] in
            guard let self, case .success(let offer) = await self.fetchOffer() else { return }
            for listener in self.listeners { listener.feature?.announce(offer) }
        }
    }
}

/// Bytes gathered by a callback on the main loop.
@MainActor
final class ByteSink {
    var bytes: [UInt8] = []
}
