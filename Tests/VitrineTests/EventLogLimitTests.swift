import Foundation
import Testing
@testable import Vitrine
import VitrineTesting

/// The events log's bounds: lines of a kind rate-limited with their drops counted in a
/// line of their own, and a file rotated at its size.
@Suite("Events log: rate limit and rotation")
@MainActor
struct EventLogLimitTests {
    static let refused = ContainerEvent.message(name: "storage", outcome: .rejected, error: "not granted", origin: "https://x.example")

    @Test func aBucketPerKindRefillsWithTime() {
        var limiter = EventRateLimiter(limits: .init(burst: 3, perSecond: 2, reportInterval: .seconds(5), kinds: 2))
        let flood = (0..<10).map { _ in limiter.admit("message a rejected", at: .zero) }
        #expect(flood.filter { $0 }.count == 3, "the burst, then nothing")
        let otherKind = limiter.admit("load finished", at: .zero)
        #expect(otherKind, "another kind has its own bucket")
        let halfASecondLater = [limiter.admit("message a rejected", at: .milliseconds(500)),
                                limiter.admit("message a rejected", at: .milliseconds(500))]
        #expect(halfASecondLater == [true, false], "half a second: one more")
        // Beyond `kinds`, new kinds share one bucket: a new name per call gets no fresh allowance.
        let invented = (0..<10).map { limiter.admit("message name-\($0) rejected", at: .seconds(1)) }
        #expect(invented.filter { $0 }.count == 3)
        let drops = limiter.takeDrops(at: .seconds(1))
        #expect(drops.map(\.kind) == [EventRateLimiter.otherKinds, "message a rejected"])
        #expect(drops.map(\.count) == [7, 8])
        let again = limiter.takeDrops(at: .seconds(2))
        #expect(again.isEmpty, "counted once")
        // Full buckets are forgotten at a report: new kinds get their own again.
        _ = limiter.takeDrops(at: .seconds(100))
        let fresh = (0..<5).map { _ in limiter.admit("message fresh rejected", at: .seconds(100)) }
        #expect(fresh.filter { $0 }.count == 3)
    }

    @Test func kindsAreBoundedInLength() {
        let long = ContainerEvent.message(name: String(repeating: "n", count: 10_000), outcome: .rejected, error: nil)
        #expect(EventRateLimiter.kind(of: long).utf8.count == 120)
        #expect(EventRateLimiter.kind(of: Self.refused) == "message storage rejected")
    }

    /// A flood of one refused call: the burst is written, the rest counted in one line
    /// when the report interval has passed; another kind still gets through.
    @Test func aFloodIsCutAndItsDropsReported() async throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("events.log").path
        let clock = ManualClock()
        let log = try JSONLinesEventLog(path: path, rateLimits: .init(burst: 5, perSecond: 1, reportInterval: .seconds(5)), clock: clock)
        for _ in 0..<10_000 { log.record(Self.refused) }
        log.record(.load(event: .finished, url: "app://app/", error: nil))
        func lines() throws -> [JSONValue] {
            try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map { try JSONValue(parsing: String($0)) }
        }
        #expect(try lines().count == 6, "the burst and the other kind")
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(5))
        let report = await eventually("the dropped line") { await Self.line(in: path) { $0["type"] == "dropped" } }
        #expect(report?["kinds"] == ["message storage rejected": 9995])
        #expect(report?["seconds"] == 5)
        // After the interval the bucket has refilled a little: 5 more, and one report later.
        for _ in 0..<100 { log.record(Self.refused) }
        #expect(try lines().count == 12)
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(5))
        let second = await eventually("the second dropped line") {
            await Self.line(in: path) { $0["kinds"] == ["message storage rejected": 95] }
        }
        #expect(second != nil)
        #expect(try lines().count == 13)
    }

    /// The file's last line once it is one `matches` accepts (polled: the report comes from a task).
    static func line(in path: String, _ matches: (JSONValue) -> Bool) async -> JSONValue {
        while true {
            if let text = try? String(contentsOfFile: path, encoding: .utf8), let last = text.split(separator: "\n").last,
               let line = try? JSONValue(parsing: String(last)), matches(line) { return line }
            try? await Task.sleep(for: .milliseconds(5))
        }
    }

    /// Without limits every line is written (the option for embedders that count lines).
    @Test func noLimitsWritesEverything() throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("events.log").path
        let log = try JSONLinesEventLog(path: path, rateLimits: nil)
        for _ in 0..<1000 { log.record(Self.refused) }
        #expect(try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").count == 1000)
    }

    /// At max-size the file becomes FILE.1 (replacing the one before) and a new one starts.
    @Test func theFileRotatesAtItsSize() throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("events.log").path
        try Data(String(repeating: "old line\n", count: 400).utf8).write(to: URL(fileURLWithPath: path)) // 3600 bytes
        let log = try JSONLinesEventLog(path: path, maxSize: 4096, rateLimits: nil)
        var written = 0
        for number in 0..<200 {
            log.record(.native(action: .emit, detail: "line \(number)"))
            written += 1
            #expect((FileSystem.size(path) ?? 0) <= 4096)
        }
        let current = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        let old = try String(contentsOfFile: path + ".1", encoding: .utf8).split(separator: "\n")
        #expect(!old.contains("old line"), "the first old file was replaced by a later one")
        #expect(!FileManager.default.fileExists(atPath: path + ".2"), "one old file only")
        let numbers = (old + current).compactMap { try? JSONValue(parsing: String($0))["detail"]?.stringValue }
        #expect(numbers.last == "line 199")
        #expect(current.count + old.count < written, "older lines went with the rotations")
        #expect(numbers == (200 - numbers.count..<200).map { "line \($0)" }, "the newest lines, in order, none lost between the two files")
    }
}
