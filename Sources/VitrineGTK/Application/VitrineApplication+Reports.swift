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

extension VitrineApplication {
    /// Crash and error reports at start (`[reports]`): the last run's fatal signal becomes a
    /// report, this run's would be recorded, and the reports not sent yet go to
    /// `[reports] upload` in the background (the window never waits for it); `record` tells
    /// the first window's events how that went.
    func startReports(recording record: @escaping @MainActor (ContainerEvent) -> Void) {
        guard configuration.keepsReports else { return }
        let log = ReportLog(appDataFolder: configuration.appDataDirectory)
        do throws(FileSystemError) {
            try log.prepare()
            try log.collectFatalSignals(app: applicationID)
        } catch {
            printToStandardError("\(Self.programName): crash reports are off: \(error)")
            return
        }
        FatalSignalRecorder.install(writingTo: log.fatalFile.path)
        if let upload = configuration.reportsUpload {
            ReportSender.send(log, app: applicationID, to: upload, recording: record)
        }
    }
}

/// Vitrine's own fatal signals written to the reports folder (the handler is C: see
/// `vitrine_install_fatal_signal_handler` in CWebKitGTK's shim.h). Once per process.
@MainActor
enum FatalSignalRecorder {
    private static var installed = false

    static func install(writingTo path: String) {
        guard !installed else { return }
        // Kept open for the life of the process: a dying process opens nothing.
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else {
            printToStandardError("vitrine: fatal signals are not recorded: cannot open \(path): \(String(cString: strerror(errno)))")
            return
        }
        installed = vitrine_install_fatal_signal_handler(fd) == 0
    }
}

/// POSTs the reports not sent yet, a batch at a time (`ReportUpload`), and marks each batch
/// sent when the server accepts it; the window's events say how it went.
@MainActor
enum ReportSender {
    static func send(_ log: ReportLog, app: String, to url: SecretURL, recording record: @escaping @MainActor (ContainerEvent) -> Void) {
        guard let upload = ReportUpload(log: log, app: app) else { return }
        HTTPUpload.send("POST", upload.body, contentType: "application/json", to: url.revealed, key: "reports.upload") { failure in
            if let failure {
                record(.native(action: .reportsUploadFailed, detail: failure))
                return
            }
            do throws(FileSystemError) {
                try log.markSent(upload.ids)
            } catch {
                record(.native(action: .reportsUploadFailed, detail: "sent, but not marked sent: \(error)"))
                return
            }
            record(.native(action: .reportsSent, detail: "\(upload.ids.count) report(s) to \(url.revealed.host ?? "")"))
            send(log, app: app, to: url, recording: record)
        }
    }
}
