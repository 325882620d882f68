#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

/// Crash and error reports (`[reports]`): the window's page errors (Resources/sdk/page-errors.js
/// through the `page-error` strategy) and its web process's crashes and hangs (heard as
/// events) written to the app's reports file by the core's `ErrorReports`, which decides
/// everything; this only joins it to the window.
@MainActor
public final class ReportsFeature: WindowFeature, PageErrorReporting {
    private weak var host: (any FeatureHost)?
    /// Nil when the app keeps no reports, or once the window has gone.
    public private(set) var reports: ErrorReports?

    public init() {}

    public func attach(to host: any FeatureHost) {
        self.host = host
        let configuration = host.configuration
        guard configuration.keepsReports else { return }
        let reports = ErrorReports(log: ReportLog(appDataFolder: configuration.appDataDirectory), app: configuration.applicationID)
        self.reports = reports
        host.container?.addEventSink(reports)
    }

    public func pageError(_ error: PageErrorStrategy.Request, document: String, pageURL: String?) -> Bool {
        guard let host, !host.isClosed, let reports else { return false }
        return reports.pageError(error, document: document, pageURL: pageURL)
    }

    public func tearDown() {
        reports = nil
    }
}
