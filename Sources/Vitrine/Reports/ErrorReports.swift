#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A window's reports: its page errors (through `PageErrorFilter`) and, heard as events, its
/// web process's crashes and hangs, written to the app's `ReportLog`. Events reach it
/// redacted already; the report redacts again what it keeps.
///
/// A web process that Vitrine terminated itself (`terminated`: the hang watchdog, a
/// memory-pressure stop) is not a crash: the hang was reported when it was seen.
@MainActor
public final class ErrorReports: EventSink {
    public let log: ReportLog
    private let app: String
    private var filter: PageErrorFilter
    /// The main document last committed: the page a crash or a hang took away.
    private var shownURL: String?
    /// Why the last report could not be written, if it could not (told once per failure).
    public private(set) var lastFailure: String?

    public init(log: ReportLog, app: String, perDocument: Int = PageErrorFilter.perDocument) {
        self.log = log
        self.app = app
        filter = PageErrorFilter(perDocument: perDocument)
    }

    /// A page's error, reported when the filter admits it.
    public func pageError(_ error: PageErrorStrategy.Request, document: String, pageURL: String?) -> Bool {
        guard filter.admit(document: document, message: error.message, source: error.source, line: error.line) else { return false }
        let kind: ErrorReport.Kind = error.kind == .error ? .pageError : .unhandledRejection
        return keep(ErrorReport(kind: kind, app: app, message: error.message, url: pageURL, source: error.source,
                                line: error.line, column: error.column, stack: error.stack))
    }

    public func record(_ event: ContainerEvent) {
        switch event {
        case .load(event: .committed, let url, _, _, _):
            shownURL = url
        case .native(action: .webProcessTerminated, let why) where why != "terminated":
            keep(ErrorReport(kind: .webProcessCrash, app: app, message: "the page's web process \(why)", url: shownURL))
        case .native(action: .unresponsive, let url):
            keep(ErrorReport(kind: .hang, app: app, message: "the page stopped answering", url: url.isEmpty ? shownURL : url))
        default:
            break
        }
    }

    @discardableResult
    private func keep(_ report: ErrorReport) -> Bool {
        do throws(FileSystemError) {
            try log.append(report)
            lastFailure = nil
            return true
        } catch {
            lastFailure = error.description
            return false
        }
    }
}
