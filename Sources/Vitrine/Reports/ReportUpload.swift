#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One POST of reports to `[reports] upload`: the oldest reports not sent yet (at most
/// `batchLimit`), as `{"app": ID, "version": V, "reports": [REPORT, …]}`. They are marked
/// sent only when the server answers 2xx (`accepts`); anything else leaves them for the
/// next start. Each report is redacted already (`ErrorReport`); its `id` lets a server
/// drop a report it got twice (an answer lost on the way back).
public struct ReportUpload: Sendable {
    public static let batchLimit = 100

    public let ids: [String]
    public let body: [UInt8]

    private struct Body: Encodable {
        let app: String
        let version: String
        let reports: [ErrorReport]
    }

    /// The next POST from `log`; nil when every report has been sent.
    public init?(log: ReportLog, app: String) {
        let reports = Array(log.unsent().prefix(Self.batchLimit))
        guard !reports.isEmpty, let encoded = try? JSONEncoder.compactSorted.encode(
            Body(app: app, version: VitrineVersion.string, reports: reports)) else { return nil }
        ids = reports.map(\.id)
        body = Array(encoded)
    }

    /// Whether an answer with `status` means the server kept the reports.
    public static func accepts(status: Int) -> Bool { (200..<300).contains(status) }
}
