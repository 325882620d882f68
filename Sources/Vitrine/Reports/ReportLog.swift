#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// The app's reports on disk, in `<app data folder>/reports/`:
/// - `reports.jsonl`: one `ErrorReport` per line; at `maxSize` bytes it is renamed
///   `reports.1.jsonl` (replacing the one before) and started afresh;
/// - `sent`: the ids of the reports an upload's server accepted, one per line;
/// - `fatal`: what the fatal-signal handler wrote while the program died (see
///   `FatalSignalRecord`), turned into reports at the next start.
///
/// Plain appends of whole lines; the folder is the user's own (0700).
public struct ReportLog: Sendable {
    public static let defaultMaxSize = 256 * 1024
    public let folder: URL
    public let maxSize: Int

    public init(folder: URL, maxSize: Int = ReportLog.defaultMaxSize) {
        self.folder = folder
        self.maxSize = maxSize
    }

    /// The app's reports folder.
    public init(appDataFolder: URL) {
        self.init(folder: appDataFolder.appendingPathComponent("reports", isDirectory: true))
    }

    public var file: URL { folder.appendingPathComponent("reports.jsonl") }
    public var rotatedFile: URL { folder.appendingPathComponent("reports.1.jsonl") }
    public var sentFile: URL { folder.appendingPathComponent("sent") }
    public var fatalFile: URL { folder.appendingPathComponent("fatal") }

    /// Creates the folder (0700) when it is missing.
    public func prepare() throws(FileSystemError) {
        guard !FileSystem.isDirectory(folder.path) else { return }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw FileSystemError("cannot create the reports folder \(folder.path): \(error)")
        }
    }

    /// Appends `report`, rotating the file first when the line would take it past `maxSize`.
    public func append(_ report: ErrorReport) throws(FileSystemError) {
        try prepare()
        let line = Array((report.jsonLine + "\n").utf8)
        if let size = FileSystem.size(file.path), size > 0, size + line.count > maxSize {
            if rename(file.path, rotatedFile.path) != 0 {
                throw FileSystemError("cannot rotate \(file.path): \(String(cString: strerror(errno)))")
            }
        }
        try Self.appendLine(line, to: file.path)
    }

    /// Every report kept, oldest first (a line that is not a report is skipped).
    public func reports() -> [ErrorReport] {
        let decoder = JSONDecoder()
        return [rotatedFile, file].flatMap { file -> [ErrorReport] in
            guard let text = FileSystem.contents(of: file.path, limit: maxSize * 2) else { return [] }
            return text.split(separator: "\n").compactMap { try? decoder.decode(ErrorReport.self, from: Data($0.utf8)) }
        }
    }

    /// The ids of the reports already sent.
    public func sentIDs() -> Set<String> {
        guard let text = FileSystem.contents(of: sentFile.path, limit: maxSize * 2) else { return [] }
        return Set(text.split(separator: "\n").map(String.init))
    }

    /// The reports not sent yet, oldest first.
    public func unsent() -> [ErrorReport] {
        let sent = sentIDs()
        return reports().filter { !sent.contains($0.id) }
    }

    /// Every report kept, oldest first, as `vitrine ctl reports` prints it: its JSON object
    /// with `"sent": true|false` added.
    public func listing() -> [String] {
        let sent = sentIDs()
        return reports().map { report in
            String(report.jsonLine.dropLast()) + ",\"sent\":\(sent.contains(report.id))}"
        }
    }

    /// Records `ids` as sent; the list keeps only ids of reports still kept.
    public func markSent(_ ids: [String]) throws(FileSystemError) {
        let kept = Set(reports().map(\.id))
        let sent = sentIDs().union(ids).intersection(kept)
        try prepare()
        try FileSystem.replaceAtomically(sentFile.path, with: Array(sent.sorted().map { $0 + "\n" }.joined().utf8))
    }

    /// Turns the fatal-signal handler's records (left by a run that died) into reports, then
    /// empties its file. Returns the reports made.
    @discardableResult
    public func collectFatalSignals(app: String) throws(FileSystemError) -> [ErrorReport] {
        guard let text = FileSystem.contents(of: fatalFile.path, limit: 64 * 1024), !text.isEmpty else { return [] }
        let reports = text.split(separator: "\n").compactMap { FatalSignalRecord(line: String($0))?.report(app: app) }
        for report in reports { try append(report) }
        guard truncate(fatalFile.path, 0) == 0 else {
            throw FileSystemError("cannot empty \(fatalFile.path): \(String(cString: strerror(errno)))")
        }
        return reports
    }

    private static func appendLine(_ line: [UInt8], to path: String) throws(FileSystemError) {
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw FileSystemError("cannot open \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        let written = line.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard written == line.count else { throw FileSystemError("cannot write \(path): \(String(cString: strerror(errno)))") }
    }
}
