#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// Appends one JSON object per line to a file (`-` for standard output).
///
/// Written at once by default. With a `flushScheduler`, lines gather in memory and go out
/// in one write when the scheduler runs the flush (the GTK adapter's runs it once the main
/// loop has dispatched what it is dispatching), or as soon as `batchLimit` bytes wait: a
/// burst of script messages then costs one system call, not one per message. A crash of
/// the program itself loses at most the lines of the main-loop turn it crashed in; call
/// `flush()` before exiting.
///
/// Bounded: lines of each kind are rate-limited (`EventRateLimiter`; what is dropped is
/// counted in a `{"type":"dropped",…}` line at most every `reportInterval`), and a file
/// that reaches `maxSize` bytes is renamed `FILE.1` (replacing the one before) and started
/// afresh. Only this log is limited: the metrics and the broker still see every event.
@MainActor
public final class JSONLinesEventLog: EventSink {
    /// Runs the flush it is given later, on the main actor.
    public typealias FlushScheduler = @MainActor (_ flush: @escaping @MainActor () -> Void) -> Void

    /// Bytes that may wait for a scheduled flush before they are written anyway.
    public static let batchLimit = 32 * 1024

    private let path: String
    private var descriptor: Int32
    private let ownsDescriptor: Bool
    private let flushScheduler: FlushScheduler?
    /// Bytes the file may reach before it is rotated; nil: no rotation (standard output).
    private let maxSize: Int?
    /// The file's size as far as this log knows (its own writes since it opened it).
    private var size = 0
    private var limiter: EventRateLimiter?
    /// Time since the log was made, on its clock.
    private let now: @Sendable () -> Duration
    private let sleep: @Sendable (Duration) async throws -> Void
    /// Whether a report of dropped lines is due and has not been written yet.
    private var reportScheduled = false
    /// Lines not written yet (only with a scheduler).
    private var pending: [UInt8] = []
    /// Whether a flush is scheduled and has not run yet.
    private var flushScheduled = false

    /// - Parameters:
    ///   - path: the file appended to; `-` for standard output.
    ///   - maxSize: the file's size at which it is rotated (not for `-`).
    ///   - rateLimits: per-kind limits; nil: every line written.
    ///   - clock: the rate limit's and the drop reports' time.
    ///   - flushScheduler: runs the write of the lines gathered in one turn of the main loop;
    ///     nil: each line is written at once.
    public init<C: Clock>(path: String, maxSize: Int = 10 << 20, rateLimits: EventRateLimiter.Limits? = .init(),
                          clock: C, flushScheduler: FlushScheduler? = nil) throws where C.Duration == Duration {
        self.path = path
        self.flushScheduler = flushScheduler
        limiter = rateLimits.map { EventRateLimiter(limits: $0) }
        let start = clock.now
        now = { start.duration(to: clock.now) }
        sleep = { try await clock.sleep(for: $0) }
        if path == "-" {
            descriptor = STDOUT_FILENO
            ownsDescriptor = false
            self.maxSize = nil
            return
        }
        self.maxSize = maxSize
        descriptor = try Self.open(path)
        ownsDescriptor = true
        size = FileIdentity(descriptor: descriptor)?.size ?? 0
    }

    public convenience init(path: String, maxSize: Int = 10 << 20, rateLimits: EventRateLimiter.Limits? = .init(),
                            flushScheduler: FlushScheduler? = nil) throws {
        try self.init(path: path, maxSize: maxSize, rateLimits: rateLimits, clock: ContinuousClock(), flushScheduler: flushScheduler)
    }

    private static func open(_ path: String) throws -> Int32 {
        let fd = Glibc.open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw ConfigurationError("cannot open events file '\(path)' for writing: \(String(cString: strerror(errno)))")
        }
        return fd
    }

    /// The last event and its line: a busy bridge logs the same message event over and
    /// over (same strategy, same origin, resolved), and encoding is most of a line's cost.
    private var lastEvent: ContainerEvent?
    private var lastLine: [UInt8] = []

    public func record(_ event: ContainerEvent) {
        if limiter != nil, !limiter!.admit(EventRateLimiter.kind(of: event), at: now()) {
            scheduleReport()
            return
        }
        if lastEvent != event {
            guard let encoded = try? JSONEncoder.compactSorted.encode(event) else { return } // every field is a string or a bool
            lastLine = Array(encoded)
            lastLine.append(UInt8(ascii: "\n"))
            lastEvent = event
        }
        append(lastLine)
    }

    private func append(_ line: [UInt8]) {
        guard let flushScheduler else {
            line.withUnsafeBytes { write($0) }
            return
        }
        pending.append(contentsOf: line)
        if pending.count >= Self.batchLimit {
            flush()
        } else if !flushScheduled {
            flushScheduled = true
            flushScheduler { [weak self] in
                guard let self else { return }
                flushScheduled = false
                flush()
            }
        }
    }

    /// A report of the dropped lines, `reportInterval` after the first drop since the last.
    private func scheduleReport() {
        guard !reportScheduled, let interval = limiter?.limits.reportInterval else { return }
        reportScheduled = true
        let sleep = self.sleep
        Task { @MainActor [weak self] in
            try? await sleep(interval)
            self?.reportDrops()
        }
    }

    /// Writes `{"type":"dropped","seconds":S,"kinds":{KIND: COUNT, …}}` if lines were dropped.
    public func reportDrops() {
        reportScheduled = false
        guard let drops = limiter?.takeDrops(at: now()), !drops.isEmpty else { return }
        let line: JSONValue = ["type": "dropped", "seconds": .number(limiter!.limits.reportInterval.inSeconds),
                               "kinds": .object(JSONObject(drops.map { ($0.kind, JSONValue.number(Double($0.count))) }))]
        append(Array((line.jsonText + "\n").utf8))
    }

    /// Writes the lines that wait, if any.
    public func flush() {
        guard !pending.isEmpty else { return }
        pending.withUnsafeBytes { write($0) }
        pending.removeAll(keepingCapacity: true)
    }

    private func write(_ buffer: UnsafeRawBufferPointer) {
        rotateIfFull(adding: buffer.count)
        var offset = 0
        while offset < buffer.count {
            let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return } // a full disk loses the lines, never the app
            offset += written
            size += written
        }
    }

    /// Renames a file that would grow past `maxSize` to `FILE.1` and opens a new one.
    private func rotateIfFull(adding count: Int) {
        guard let maxSize, ownsDescriptor, size > 0, size + count > maxSize else { return }
        // Another writer may have rotated it already: then only the new file is opened.
        rename(path, path + ".1")
        guard let fresh = try? Self.open(path) else { return } // keeps writing the old file
        close(descriptor)
        descriptor = fresh
        size = FileIdentity(descriptor: fresh)?.size ?? 0
    }

    isolated deinit {
        if reportScheduled { reportDrops() }
        flush()
        if ownsDescriptor { close(descriptor) }
    }
}
