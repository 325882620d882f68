#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One crash or error report: a line of the app's reports file (`ReportLog`) and, with
/// `[reports] upload`, one element of what is POSTed.
///
/// Made only through `init(kind:…)`, which redacts every text as `Redaction` says (URLs
/// with passwords or tokens, the credentials the process knows) and bounds its length: a
/// report can hold nothing that the events log could not.
public struct ErrorReport: Codable, Sendable, Equatable {
    /// What happened.
    public enum Kind: String, Codable, Sendable, CaseIterable {
        /// An exception nobody caught in one of the app's pages (`error`).
        case pageError = "page-error"
        /// A promise of one of the app's pages rejected with no handler (`unhandledrejection`).
        case unhandledRejection = "unhandled-rejection"
        /// A page's web process crashed or exceeded its memory limit.
        case webProcessCrash = "web-process-crash"
        /// A page stopped answering (the hang watchdog terminated its process).
        case hang
        /// Vitrine itself died of a signal (SIGSEGV, SIGBUS, SIGABRT, SIGILL, SIGFPE).
        case fatalSignal = "fatal-signal"
    }

    /// Characters kept of a message, a URL or a source; of a stack.
    public static let textLimit = 1024
    public static let stackLimit = 4096

    /// Unique: what an upload's receiver may deduplicate on, what `sent` lists.
    public let id: String
    /// Seconds since 1970 (UTC).
    public let time: Double
    public let kind: Kind
    /// The app's id, its Vitrine version.
    public let app: String
    public let version: String
    public let message: String
    /// The page shown (crashes, hangs) or that threw (page errors).
    public let url: String?
    /// The script and line that threw (page errors).
    public let source: String?
    public let line: Int?
    public let column: Int?
    public let stack: String?

    public init(kind: Kind, app: String, message: String, url: String? = nil, source: String? = nil, line: Int? = nil,
                column: Int? = nil, stack: String? = nil, time: Date = Date(), id: String = UUID().uuidString) {
        self.id = id
        self.time = (time.timeIntervalSince1970 * 1000).rounded() / 1000
        self.kind = kind
        self.app = Self.bounded(app, Self.textLimit)
        version = VitrineVersion.string
        self.message = Self.bounded(message, Self.textLimit)
        self.url = url.map { Self.bounded($0, Self.textLimit) }
        self.source = source.map { Self.bounded($0, Self.textLimit) }
        self.line = line.map { max(0, $0) }
        self.column = column.map { max(0, $0) }
        self.stack = stack.map { Self.bounded($0, Self.stackLimit) }.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// `text` redacted, then cut to `limit` characters. Redacted whole first (up to a
    /// generous bound) so that a cut never leaves half a URL whose password is no longer
    /// recognised as one.
    static func bounded(_ text: String, _ limit: Int) -> String {
        let redacted = Redaction.text(String(text.prefix(limit * 8)))
        guard redacted.count > limit else { return redacted }
        return String(redacted.prefix(limit - 1)) + "…"
    }

    /// The report as one JSON line (no newline): keys sorted, nil fields left out.
    public var jsonLine: String {
        (try? JSONEncoder.compactSorted.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}
