#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A sidecar's standard output and error cut into lines for the events log, bounded: a line
/// is cut at `lineLimit` bytes; both streams together get at most `burst` lines at once and
/// `perSecond` after, and `total` lines for the sidecar's whole life; what is dropped is
/// counted and told once before the next line kept (or by `flushDrops`). A sidecar that
/// prints without end cannot fill the disk nor hold more than a line's bytes per stream in
/// memory. Time is given, never read.
public struct SidecarOutput: Sendable {
    public struct Limits: Sendable, Equatable {
        public var lineLimit: Int
        public var burst: Int
        public var perSecond: Double
        public var total: Int

        public init(lineLimit: Int = 1000, burst: Int = 100, perSecond: Double = 10, total: Int = 10_000) {
            self.lineLimit = lineLimit
            self.burst = burst
            self.perSecond = perSecond
            self.total = total
        }
    }

    /// Where a line was written.
    public enum Stream: String, Sendable, CaseIterable {
        case stdout, stderr
    }

    /// A line kept, and the stream it was written on.
    public struct Line: Sendable, Equatable {
        public var stream: Stream
        public var text: String

        public init(_ stream: Stream, _ text: String) {
            self.stream = stream
            self.text = text
        }
    }

    public let limits: Limits
    private var partial: [Stream: [UInt8]] = [:]
    /// Streams whose line being read was cut: its rest is dropped up to its line break.
    private var cutting: Set<Stream> = []
    private var tokens: Double
    private var updated: Duration?
    public private(set) var kept = 0
    /// Lines dropped (over the rate or the total) not yet told.
    public private(set) var dropped = 0

    public init(limits: Limits = Limits()) {
        self.limits = limits
        tokens = Double(limits.burst)
    }

    /// The lines `bytes`, written on `stream`, completes that may be logged (each a valid
    /// UTF-8 text, redacted later with the event), read at `now`.
    public mutating func append(_ bytes: some Sequence<UInt8>, on stream: Stream, at now: Duration) -> [Line] {
        var lines: [Line] = []
        var buffer = partial[stream] ?? []
        for byte in bytes {
            if byte == UInt8(ascii: "\n") {
                if !cutting.contains(stream) || !buffer.isEmpty { lines += keep(Self.line(&buffer), on: stream, at: now) }
                cutting.remove(stream)
            } else if cutting.contains(stream) {
                continue
            } else if buffer.count >= limits.lineLimit {
                lines += keep(Self.line(&buffer) + "…", on: stream, at: now)
                cutting.insert(stream)
            } else {
                buffer.append(byte)
            }
        }
        partial[stream] = buffer
        return lines
    }

    /// What is left at the streams' end: their last lines without a line break.
    public mutating func finish(at now: Duration) -> [Line] {
        cutting = []
        return Stream.allCases.flatMap { stream -> [Line] in
            guard var buffer = partial[stream], !buffer.isEmpty else { return [] }
            defer { partial[stream] = [] }
            return keep(Self.line(&buffer), on: stream, at: now)
        }
    }

    /// A line telling how many lines were dropped since the last one kept, once; nil when none.
    public mutating func flushDrops() -> String? {
        guard dropped > 0 else { return nil }
        defer { dropped = 0 }
        return "(\(dropped) line\(dropped == 1 ? "" : "s") of output dropped: too many)"
    }

    private static func line(_ buffer: inout [UInt8]) -> String {
        var line = buffer
        buffer.removeAll(keepingCapacity: true)
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        return String(decoding: line, as: UTF8.self)
    }

    private mutating func keep(_ line: String, on stream: Stream, at now: Duration) -> [Line] {
        if let updated {
            tokens = min(Double(limits.burst), tokens + max((now - updated).inSeconds, 0) * limits.perSecond)
        }
        updated = now
        guard kept < limits.total, tokens >= 1 else {
            dropped += 1
            return []
        }
        tokens -= 1
        kept += 1
        return (flushDrops().map { [Line(stream, $0)] } ?? []) + [Line(stream, line)]
    }
}
