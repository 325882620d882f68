import Foundation
import Glibc
import VitrineTestSupport

/// A CUPS scheduler of the test's own (Debian's `cupsd`, its configuration, spool and
/// socket in a temporary folder, no network listener) with one cups-pdf queue. Clients
/// reach it through `CUPS_SERVER` (`environment`). cups-pdf writes root's jobs to
/// `/root/PDF/` (its own configuration, `/etc/cups/cups-pdf.conf`).
final class CUPSServer {
    let folder: String
    let queue: String
    private let process = Process()

    init(queue: String) throws {
        self.queue = queue
        folder = "/tmp/vitrine-cups-\(UUID().uuidString.prefix(8))"
        for sub in ["", "/etc", "/spool", "/cache", "/state", "/tmp", "/log"] {
            try FileManager.default.createDirectory(atPath: folder + sub, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: sub == "/tmp" ? 0o1777 : 0o755])
        }
        try """
            Listen \(folder)/cups.sock
            LogLevel warn
            DefaultAuthType None
            WebInterface No
            Browsing No
            <Location />
              Order allow,deny
              Allow all
            </Location>
            <Policy default>
              <Limit All>
                Order deny,allow
              </Limit>
            </Policy>
            """.write(toFile: folder + "/cupsd.conf", atomically: true, encoding: .utf8)
        try """
            ServerRoot \(folder)/etc
            RequestRoot \(folder)/spool
            CacheDir \(folder)/cache
            StateDir \(folder)/state
            TempDir \(folder)/tmp
            ErrorLog \(folder)/log/error_log
            AccessLog \(folder)/log/access_log
            PageLog \(folder)/log/page_log
            ServerBin /usr/lib/cups
            DataDir /usr/share/cups
            SystemGroup root
            """.write(toFile: folder + "/cups-files.conf", atomically: true, encoding: .utf8)
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/cupsd")
        process.arguments = ["-f", "-c", folder + "/cupsd.conf", "-s", folder + "/cups-files.conf"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        guard FactWait(watching: [folder + "/cups.sock"]).wait(timeout: 20, until: { FileManager.default.fileExists(atPath: folder + "/cups.sock") })
        else { throw POSIXError(.ETIMEDOUT) }
        // pdftocairo keeps the page's text extractable (Debian's default ghostscript does not).
        let added = try runProcess("/usr/sbin/lpadmin", ["-p", queue, "-E", "-v", "cups-pdf:/",
                                                         "-P", "/usr/share/ppd/cups-pdf/CUPS-PDF_opt.ppd",
                                                         "-o", "pdftops-renderer-default=pdftocairo"],
                                   environment: environment)
        guard added.status == 0 else { throw POSIXError(.EINVAL) }
    }

    /// The environment that points CUPS clients (GTK's print backend, lpstat) at this scheduler.
    var environment: [String: String] {
        ProcessInfo.processInfo.environment.merging(["CUPS_SERVER": folder + "/cups.sock"]) { $1 }
    }

    /// The PDFs cups-pdf has written for root since `date`, newest last.
    static func pdfs(since date: Date) -> [String] {
        let home = "/root/PDF"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: home)) ?? []
        var found: [(path: String, modified: Date)] = []
        for name in names where name.hasSuffix(".pdf") {
            let path = home + "/" + name
            let attributes = try? FileManager.default.attributesOfItem(atPath: path)
            if let modified = attributes?[.modificationDate] as? Date, modified >= date.addingTimeInterval(-1) {
                found.append((path, modified))
            }
        }
        return found.sorted { $0.modified < $1.modified }.map(\.path)
    }

    /// Ends the scheduler with SIGKILL: it inherits the test process's blocked signals, so
    /// SIGTERM never reaches it, and every run used to leave one behind after a 10 s wait.
    func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        waitForExit(of: process, timeout: 10)
        try? FileManager.default.removeItem(atPath: folder)
    }
}

/// The text of a PDF, as poppler's `pdftotext` reads it.
func pdfText(_ path: String) -> String {
    (try? runProcess("/usr/bin/pdftotext", [path, "-"]))?.stdout ?? ""
}
