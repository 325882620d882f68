import Foundation
import Testing
import Vitrine
import VitrineConfigFile

/// Crash and error reports decided without a display: what a report keeps (redacted,
/// bounded), which page errors become reports, the file (rotation, sent marks, the fatal
/// signal handler's lines), and the `[reports]` keys.
@Suite("Error reports: records, filter, file, configuration")
@MainActor
struct ErrorReportTests {
    nonisolated static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vitrine-reports-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    static func pageError(_ message: String, line: Int = 1, kind: PageErrorStrategy.Kind = .error) -> PageErrorStrategy.Request {
        PageErrorStrategy.Request(kind: kind, message: message, source: "app://app/app.js", line: line, column: 2)
    }

    @Test func aReportIsRedactedAndBounded() {
        let secret = "tok-\(UUID().uuidString.prefix(8))"
        let url = "https://user:\(secret)@shop.example/p?access_token=\(secret)"
        let report = ErrorReport(kind: .pageError, app: "org.example.Shop", message: "failed to fetch \(url)", url: url,
                                 source: url, line: 3, column: 4, stack: "f@\(url):3:4")
        #expect(!report.jsonLine.contains(secret), "\(report.jsonLine)")
        #expect(report.url == "https://user:<redacted>@shop.example/p?access_token=<redacted>")
        #expect(report.message.contains("<redacted>"))
        let long = ErrorReport(kind: .pageError, app: "a", message: String(repeating: "m", count: 100_000),
                               stack: String(repeating: "s", count: 100_000))
        #expect(long.message.count == ErrorReport.textLimit)
        #expect(long.stack?.count == ErrorReport.stackLimit)
        // A secret beyond the cut is still recognised: the text is redacted before it is cut.
        let cut = ErrorReport(kind: .pageError, app: "a", message: String(repeating: "x", count: 1000) + " https://u:\(secret)@h/")
        #expect(!cut.message.contains(secret))
    }

    @Test func theFilterKeepsTheFirstDistinctErrorsOfEachDocument() {
        var filter = PageErrorFilter(perDocument: 3)
        let answers = [
            filter.admit(document: "a", message: "boom", source: "s", line: 1),
            filter.admit(document: "a", message: "boom", source: "s", line: 1),  // a duplicate
            filter.admit(document: "a", message: "boom", source: "s", line: 2),  // another line
            filter.admit(document: "a", message: "bang", source: "s", line: 1),
            filter.admit(document: "a", message: "fourth", source: "s", line: 9),  // the document's cap
            filter.admit(document: "b", message: "boom", source: "s", line: 1),  // another document counts afresh
        ]
        #expect(answers == [true, false, true, true, false, true])
        let admitted = (0..<1000).filter { filter.admit(document: "flood", message: "error \($0)", source: "s", line: $0) }
        #expect(admitted.count == 3)
    }

    @Test func pageErrorsAndCrashesGoToTheFileOnce() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let reports = ErrorReports(log: ReportLog(folder: folder), app: "org.example.Shop", perDocument: 2)
        #expect(reports.pageError(Self.pageError("boom"), document: "d1", pageURL: "app://app/index.html"))
        #expect(!reports.pageError(Self.pageError("boom"), document: "d1", pageURL: "app://app/index.html"))
        #expect(reports.pageError(Self.pageError("nope", kind: .unhandledrejection), document: "d1", pageURL: nil))
        #expect(!reports.pageError(Self.pageError("third", line: 5), document: "d1", pageURL: nil))
        reports.record(.load(event: .committed, url: "https://shop.example/cart", error: nil))
        reports.record(.native(action: .webProcessTerminated, detail: "crashed"))
        reports.record(.native(action: .webProcessTerminated, detail: "terminated"))  // Vitrine stopped it: not a crash
        reports.record(.native(action: .unresponsive, detail: "https://shop.example/cart"))
        let kept = reports.log.reports()
        #expect(kept.map(\.kind) == [.pageError, .unhandledRejection, .webProcessCrash, .hang])
        #expect(kept[0].message == "boom" && kept[0].source == "app://app/app.js" && kept[0].line == 1 && kept[0].url == "app://app/index.html")
        #expect(kept[2].url == "https://shop.example/cart" && kept[2].message.contains("crashed"))
        #expect(Set(kept.map(\.id)).count == 4 && kept.allSatisfy { $0.app == "org.example.Shop" })
    }

    @Test func theFileRotatesAndRemembersWhatWasSent() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let log = ReportLog(folder: folder, maxSize: 1000)
        let written = (0..<20).map { ErrorReport(kind: .pageError, app: "a", message: "error \($0)") }
        for report in written { try log.append(report) }
        #expect((FileSystem.size(log.file.path) ?? .max) <= 1000 && (FileSystem.size(log.rotatedFile.path) ?? .max) <= 1000)
        let kept = log.reports()
        #expect(!kept.isEmpty && kept.count < 20, "bounded: the oldest are gone")
        #expect(kept.map(\.id) == written.suffix(kept.count).map(\.id), "the newest, oldest first")
        try log.markSent([kept[0].id, "gone-long-ago"])
        #expect(log.sentIDs() == [kept[0].id], "only kept reports are remembered")
        #expect(log.unsent().map(\.id) == kept.dropFirst().map(\.id))
        let listing = log.listing()
        #expect(listing.count == kept.count)
        #expect(listing[0].hasSuffix(#""sent":true}"#) && listing[1].hasSuffix(#""sent":false}"#))
        #expect(try JSONSerialization.jsonObject(with: Data(listing[0].utf8)) is [String: Any])
        // A line that is not a report (a torn write) is skipped, not fatal.
        try Data("{\"torn\n".utf8).append(to: log.file)
        #expect(log.reports().count == kept.count)
    }

    @Test func theFatalSignalHandlersLinesBecomeReportsOnce() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let log = ReportLog(folder: folder)
        try Data("signal 11 1765000000\nsignal 99 1\ngarbage\nsignal 6 17650".utf8).write(to: log.fatalFile)
        let made = try log.collectFatalSignals(app: "org.example.Shop")
        #expect(made.map(\.message) == ["Vitrine died of SIGSEGV (signal 11)", "Vitrine died of SIGABRT (signal 6)"])
        #expect(made.allSatisfy { $0.kind == .fatalSignal } && made[0].time == 1_765_000_000)
        #expect(log.reports().map(\.id) == made.map(\.id))
        #expect(try log.collectFatalSignals(app: "x").isEmpty, "collected once")
        #expect(FatalSignalRecord(signal: 7, seconds: 5).line == "signal 7 5")
    }

    @Test func theReportsKeysAreChecked() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("app.toml").path
        let start = "start-url = \"https://example.org/\"\n"
        let plain = try ConfigFile(text: start, path: path).configuration()
        #expect(plain.keepsReports && plain.reportsUpload == nil)
        let secretURL = "https://reports.example/in?token=upload-secret-\(UUID().uuidString.prefix(6))"
        let configured = try ConfigFile(text: start + "[reports]\nenabled = false\nupload = \"\(secretURL)\"\n", path: path).configuration()
        #expect(!configured.keepsReports)
        #expect(configured.reportsUpload?.revealed.absoluteString == secretURL)
        #expect(!"\(configured.reportsUpload!)".contains("upload-secret"), "a secret type")
        #expect(try ConfigFile(text: start + "[reports]\nupload = \"http://127.0.0.1:8080/r\"\n", path: path).configuration().reportsUpload != nil)
        let refused = try #require(throws: ConfigFileError.self) {
            try ConfigFile(text: start + "[reports]\nupload = \"http://reports.example/in\"\n", path: path)
        }
        #expect(refused.description.contains("reports.upload must be an https URL"), "\(refused)")
    }
}

extension Data {
    func append(to url: URL) throws {
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: self)
    }
}

@Suite("Error reports: what an upload sends")
struct ReportUploadTests {
    @Test func anUploadCarriesTheUnsentReportsInBatches() throws {
        let folder = try ErrorReportTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let log = ReportLog(folder: folder)
        #expect(ReportUpload(log: log, app: "a") == nil, "nothing to send")
        let written = (0..<(ReportUpload.batchLimit + 5)).map { ErrorReport(kind: .hang, app: "a", message: "hang \($0)") }
        for report in written { try log.append(report) }
        let first = try #require(ReportUpload(log: log, app: "org.example.Shop"))
        #expect(first.ids == written.prefix(ReportUpload.batchLimit).map(\.id), "the oldest first, one batch")
        let body = try #require(try JSONSerialization.jsonObject(with: Data(first.body)) as? [String: Any])
        #expect(body["app"] as? String == "org.example.Shop" && body["version"] as? String == VitrineVersion.string)
        #expect((body["reports"] as? [[String: Any]])?.map { $0["id"] as? String } == first.ids)
        try log.markSent(first.ids)
        #expect(ReportUpload(log: log, app: "a")?.ids == written.suffix(5).map(\.id))
        #expect(ReportUpload.accepts(status: 200) && ReportUpload.accepts(status: 204))
        #expect(!ReportUpload.accepts(status: 500) && !ReportUpload.accepts(status: 302) && !ReportUpload.accepts(status: 404))
    }
}
