#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import Vitrine
import VitrineSigning

extension Updater {
    /// Checks the feed again, downloads the offered file into the app's data folder
    /// (`updates/`, capped at the manifest's size, hashed on the way) and, once it is
    /// verified, hands a .deb or .rpm to the installer. Throws why not; nothing is replaced
    /// before the download is verified.
    func install(progress: @escaping @MainActor (_ received: Int, _ total: Int) -> Void,
                 record: @escaping @MainActor (ContainerEvent) -> Void) async throws(ScriptMessageError) {
        guard !installing else { throw ScriptMessageError("update: an install is already under way") }
        installing = true
        defer { installing = false }
        let offer: UpdateOffer
        switch await fetchOffer() {
        case .success(let fetched): offer = fetched
        case .failure(let failure): throw failure.scriptMessageError
        }
        if offer.format == .tarball { return try await installTarball(offer, progress: progress, record: record) }
        try? FileManager.default.createDirectory(at: workFolder, withIntermediateDirectories: true)
        let file = try await download(offer, to: workFolder.appendingPathComponent("\(offer.package)-\(offer.version).\(offer.format.rawValue)").path,
                                      progress: progress)
        defer { unlink(file) }
        let arguments = settings.installArguments(for: offer.format, file: file) ?? []
        let status = try await run(arguments)
        guard status == 0 else {
            throw ScriptMessageError("update: \(arguments[0]) could not install \(offer.version) (exit status \(status))")
        }
    }

    /// Downloads the offer's file to `path`, verified: its path.
    func download(_ offer: UpdateOffer, to path: String, progress: @escaping @MainActor (Int, Int) -> Void) async throws(ScriptMessageError) -> String {
        guard let url = URL(string: offer.file.url) else { throw UpdateRefusal.insecureURL(offer.file.url).scriptMessageError }
        unlink(path)
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw ScriptMessageError("update: cannot write \(path): \(String(cString: strerror(errno)))") }
        let check = UpdateDownloadCheck(file: offer.file)
        let hasher = SHA256()
        let state = DownloadState()
        let failure = await withCheckedContinuation { (continuation: CheckedContinuation<String?, Never>) in
            HTTPStreamRead.start(url, piece: { piece in
                state.received += piece.count
                if check.check(received: state.received) != nil { return false }
                hasher.update(piece)
                guard write(fd, piece.baseAddress, piece.count) == piece.count else { state.writeFailed = true; return false }
                progress(state.received, offer.file.size)
                return true
            }, done: { continuation.resume(returning: $0) })
        }
        close(fd)
        if state.writeFailed {
            unlink(path)
            throw ScriptMessageError("update: cannot write \(path)")
        }
        if let refusal = check.finish(received: state.received, completed: failure == nil, sha256: hasher.digest()) {
            unlink(path)
            throw refusal.scriptMessageError
        }
        return path
    }

    private func run(_ arguments: [String]) async throws(ScriptMessageError) -> Int32 {
        let started = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Int32, ScriptMessageError>, Never>) in
            do {
                installer = try ChildProcess(arguments) { [weak self] status in
                    self?.installer = nil
                    continuation.resume(returning: .success(status))
                }
            } catch {
                continuation.resume(returning: .failure(ScriptMessageError("update: cannot start \(arguments[0]): \(error)")))
            }
        }
        return try started.get()
    }
}

@MainActor
private final class DownloadState {
    var received = 0
    var writeFailed = false
}
