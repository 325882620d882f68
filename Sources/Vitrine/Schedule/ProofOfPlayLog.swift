#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// Proof of play on disk: one JSON-lines file per local day, `FOLDER/YYYY-MM-DD.jsonl`
/// (the line is the events log's `proof-of-play` line), files older than `keepDays` days
/// removed when a day's file is opened. The folder (`<app data>/proof-of-play/`) and the
/// files are never reached through a symlink: the folder is opened with `O_NOFOLLOW` and
/// each file relative to it, `O_NOFOLLOW` too, so a link planted there is refused, not
/// written through.
///
/// Time comes from the injected calendar and the records' own dates, so tests drive days,
/// rotation and retention without waiting.
@MainActor
public final class ProofOfPlayLog: EventSink {
    public let folder: URL
    public let keepDays: Int
    public let calendar: LocalCalendar
    /// Called once per distinct failure (a folder that is a symlink, a full disk): the
    /// program prints it; the kiosk goes on.
    public var onError: ((String) -> Void)?
    private var lastError: String?

    private var folderDescriptor: Int32 = -1
    private var file: (day: LocalDate, descriptor: Int32)?

    public init(folder: URL, keepDays: Int, calendar: LocalCalendar = LocalCalendar()) {
        self.folder = folder
        self.keepDays = max(1, keepDays)
        self.calendar = calendar
    }

    /// The day's file name for `day`.
    public static func fileName(for day: LocalDate) -> String { "\(day).jsonl" }

    /// Writes `proof-of-play` events; every other event is not this log's.
    public func record(_ event: ContainerEvent) {
        guard case .proofOfPlay(let record) = event else { return }
        do {
            try append(record)
        } catch {
            let text = "\(error)"
            guard text != lastError else { return }
            lastError = text
            onError?(text)
        }
    }

    /// Appends `record`'s line to the file of the local day it ended on.
    public func append(_ record: PlayRecord) throws(FileSystemError) {
        let day = calendar.localDate(of: record.end)
        let descriptor = try descriptor(for: day)
        guard var line = try? JSONEncoder.compactSorted.encode(ContainerEvent.proofOfPlay(record)) else { return }
        line.append(UInt8(ascii: "\n"))
        // One write per line on an O_APPEND file: lines never interleave.
        let written = line.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written == line.count else {
            throw FileSystemError("cannot write proof of play to '\(folder.path)': \(String(cString: strerror(errno)))")
        }
    }

    private func descriptor(for day: LocalDate) throws(FileSystemError) -> Int32 {
        if let file, file.day == day { return file.descriptor }
        let folderDescriptor = try openFolder()
        if let file { close(file.descriptor) }
        file = nil
        let name = Self.fileName(for: day)
        let descriptor = openat(folderDescriptor, name, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw FileSystemError("cannot open '\(folder.appendingPathComponent(name).path)': "
                                  + (errno == ELOOP ? "it is a symlink, which is never followed" : String(cString: strerror(errno))))
        }
        guard let identity = FileIdentity(descriptor: descriptor), identity.isRegularFile else {
            close(descriptor)
            throw FileSystemError("cannot write '\(folder.appendingPathComponent(name).path)': it is not a regular file")
        }
        file = (day, descriptor)
        removeExpired(before: day)
        return descriptor
    }

    /// The folder, made (0700) when missing and opened without following a symlink.
    private func openFolder() throws(FileSystemError) -> Int32 {
        if folderDescriptor >= 0 { return folderDescriptor }
        let parent = folder.deletingLastPathComponent().path
        try? FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        mkdir(folder.path, 0o700)
        let descriptor = open(folder.path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw FileSystemError("cannot open the proof-of-play folder '\(folder.path)': "
                                  + (errno == ELOOP || errno == ENOTDIR ? "it is a symlink or not a folder, which is never followed"
                                                                         : String(cString: strerror(errno))))
        }
        folderDescriptor = descriptor
        return descriptor
    }

    /// Removes the day files older than `keepDays` days before `today` (today counts as one).
    private func removeExpired(before today: LocalDate) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
        let oldestKept = calendar.localDate(of: calendar.day(-(keepDays - 1), from: date(of: today)))
        for name in names where name.hasSuffix(".jsonl") {
            guard let day = LocalDate(String(name.dropLast(".jsonl".count))), day < oldestKept else { continue }
            unlinkat(folderDescriptor, name, 0)
        }
    }

    /// An instant on the local day `day` (its noon, by the calendar's time zone).
    private func date(of day: LocalDate) -> Date {
        var components = DateComponents()
        components.year = day.year
        components.month = day.month
        components.day = day.day
        components.hour = 12
        var gregorian = Calendar(identifier: .gregorian)
        gregorian.timeZone = calendar.timeZone
        return gregorian.date(from: components) ?? Date()
    }

    isolated deinit {
        if let file { close(file.descriptor) }
        if folderDescriptor >= 0 { close(folderDescriptor) }
    }
}
