#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Vitrine

extension Updater {
    /// A relocatable tarball's update (`TarballInstallPlan`): downloaded beside the running
    /// version, verified, unpacked as `<package>-<new>/`, the link swapped to it, and the new
    /// version started; this process stays up (its window keeps showing) until the new one
    /// loaded its page, then exits. If the new one exits first or misses the time limit, it
    /// is stopped, the link swapped back, and the page hears why (`update:rolled-back`).
    func installTarball(_ offer: UpdateOffer, progress: @escaping @MainActor (Int, Int) -> Void,
                        record: @escaping @MainActor (ContainerEvent) -> Void) async throws(ScriptMessageError) {
        guard let running = settings.running(programFolder: programFolder),
              let plan = TarballInstallPlan(programPath: programPath, package: offer.package, running: running, offered: offer.version)
        else {
            throw ScriptMessageError("update: this app does not run from the \(offer.package)-VERSION folder of its tarball, so it cannot be updated in place")
        }
        let started = ContinuousClock.now
        let file = try await download(offer, to: plan.download, progress: progress)
        defer { unlink(file) }
        try unpack(file, plan)
        try pointLink(plan, at: plan.archiveFolder)

        let (outcome, child) = await handOver(plan, limit: settings.handoffLimit)
        let elapsed = ContinuousClock.now - started
        unlink(plan.beacon)
        switch outcome {
        case .handedOver:
            let milliseconds = elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000
            record(.native(action: .updateInstalled, detail: "\(offer.version) in \(milliseconds) ms, pid \(child?.pid ?? 0)"))
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: plan.parent)) ?? []
            for folder in plan.obsoleteFolders(among: entries, replaced: running) { try? FileManager.default.removeItem(atPath: folder) }
            // The new version shows the app now; this one goes once its answer is sent.
            DispatchQueue.main.async { GTKRuntime.quit() }
        case .rolledBack(let reason):
            child?.terminate()
            try? pointLink(plan, at: URL(fileURLWithPath: plan.runningFolder).lastPathComponent)
            try? FileManager.default.removeItem(atPath: plan.newFolder)
            record(.native(action: .updateRolledBack, detail: "\(offer.version): \(reason)"))
            throw ScriptMessageError("update: rolled-back: \(offer.version): \(reason)")
        }
    }

    /// Unpacks the verified archive into the staging folder (the signage bundles' rules: only
    /// files and folders, inside it, bounded) and moves its one folder into place.
    private func unpack(_ file: String, _ plan: TarballInstallPlan) throws(ScriptMessageError) {
        let fileManager = FileManager.default
        try? fileManager.removeItem(atPath: plan.staging)
        defer { try? fileManager.removeItem(atPath: plan.staging) }
        do {
            try fileManager.createDirectory(atPath: plan.staging, withIntermediateDirectories: false)
            let archive = BundleArchive(file: URL(fileURLWithPath: file))
            let accepted: [BundleArchiveEntry]
            switch plan.acceptedEntries(try archive.entries()) {
            case .success(let entries): accepted = entries
            case .failure(let refusal): throw ScriptMessageError("update: \(refusal)")
            }
            try archive.unpack(accepted, into: BundleFolderWriter(folder: URL(fileURLWithPath: plan.staging)))
            chmod(plan.staging + "/" + plan.archiveProgram, 0o755)
            try? fileManager.removeItem(atPath: plan.newFolder)
            guard rename(plan.staging + "/" + plan.archiveFolder, plan.newFolder) == 0 else {
                throw ScriptMessageError("update: cannot move \(plan.archiveFolder) into place: \(String(cString: strerror(errno)))")
            }
        } catch let error as ScriptMessageError {
            throw error
        } catch {
            throw ScriptMessageError("update: cannot unpack the tarball: \(error)")
        }
    }

    /// Points `<parent>/<package>` at `folder` (a name in the same parent) atomically.
    private func pointLink(_ plan: TarballInstallPlan, at folder: String) throws(ScriptMessageError) {
        unlink(plan.linkTemporary)
        guard symlink(folder, plan.linkTemporary) == 0, rename(plan.linkTemporary, plan.link) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(plan.linkTemporary)
            throw ScriptMessageError("update: cannot point \(plan.link) at \(folder): \(reason)")
        }
    }

    /// Starts the new version with this program's arguments, through the link, and waits for
    /// its beacon, its exit or the limit.
    private func handOver(_ plan: TarballInstallPlan, limit: Duration) async -> (UpdateHandoff.Outcome, ChildProcess?) {
        unlink(plan.beacon)
        let exit = ExitBox()
        let child: ChildProcess
        do {
            child = try ChildProcess([plan.newProgram] + CommandLine.arguments.dropFirst(),
                                     environment: [(UpdateHandoff.beaconVariable, plan.beacon)]) { status in exit.status = status }
        } catch {
            return (.rolledBack(reason: "the new version could not start: \(error)"), nil)
        }
        let deadline = ContinuousClock.now + limit
        while true {
            if let outcome = UpdateHandoff.outcome(beaconWritten: FileSystem.isRegularFile(plan.beacon), exitStatus: exit.status,
                                                   limitPassed: ContinuousClock.now >= deadline, limit: limit) {
                return (outcome, child)
            }
            // The new process's facts are a file and its exit: looked at a few times a second.
            try? await Task.sleep(for: .milliseconds(50))
        }
    }
}

@MainActor
private final class ExitBox {
    var status: Int32?
}
