import Foundation
import Testing
import Vitrine
import VitrineTesting
import VitrineTestSupport

/// Proof of play as values and files: the line (valid by the events schema), the daily
/// files with rotation and retention by the injected calendar, links that are refused, and
/// the per-item counters.
@MainActor
@Suite("Proof of play")
struct ProofOfPlayTests {
    static let berlin = ScheduleTests.berlin
    static func at(_ text: String) -> Date { ScheduleTests.at(text) }

    static func record(_ item: Int, _ start: String, seconds: Double, _ outcome: PlayRecord.Outcome = .shown) -> PlayRecord {
        let begin = at(start)
        return PlayRecord(item: item, url: "https://signage.example/\(item)", start: begin, end: begin.addingTimeInterval(seconds), outcome: outcome)
    }

    func folder() throws -> URL {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("vitrine-pop-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        return base
    }

    func lines(_ url: URL) throws -> [String] {
        try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    @Test func aRecordIsOneValidEventsLine() throws {
        let start = Self.at("2026-03-27T12:00:00+01:00").addingTimeInterval(0.25)
        let record = PlayRecord(item: 3, url: "https://signage.example/3", start: start, end: start.addingTimeInterval(30.0004), outcome: .shown)
        let line = String(decoding: try JSONEncoder.compactSorted.encode(ContainerEvent.proofOfPlay(record)), as: UTF8.self)
        #expect(line == #"{"end":"2026-03-27T11:00:30.250Z","item":3,"outcome":"shown","seconds":30,"start":"2026-03-27T11:00:00.250Z","type":"proof-of-play","url":"https://signage.example/3"}"#)
        for outcome in PlayRecord.Outcome.allCases {
            let other = String(decoding: try JSONEncoder.compactSorted.encode(ContainerEvent.proofOfPlay(Self.record(0, "2026-03-27T12:00:00+01:00", seconds: 0, outcome))), as: UTF8.self)
            #expect(throws: Never.self) { try EventSchema.validate(line: other) }
        }
        #expect(EventSchema.enumeration("playOutcome") == PlayRecord.Outcome.allCases.map(\.rawValue))
        // An end before its start is clamped: no negative durations.
        #expect(PlayRecord(item: 0, url: "", start: Date(timeIntervalSince1970: 10), end: Date(timeIntervalSince1970: 5), outcome: .failed).seconds == 0)
        for bad in [#"{"end":"x","item":-1,"outcome":"shown","seconds":1,"start":"x","type":"proof-of-play","url":"u"}"#,
                    #"{"end":"x","item":1,"outcome":"played","seconds":1,"start":"x","type":"proof-of-play","url":"u"}"#,
                    #"{"end":"x","item":1,"outcome":"shown","start":"x","type":"proof-of-play","url":"u"}"#] {
            #expect(throws: (any Error).self, "\(bad)") { try EventSchema.validate(line: bad) }
        }
    }

    @Test func recordsGoToTheFileOfTheirLocalDayAndOldFilesAreRemoved() throws {
        let base = try folder()
        defer { try? FileManager.default.removeItem(at: base) }
        let folder = base.appendingPathComponent("proof-of-play")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // Files of earlier days, and a file that is not a day's (kept).
        for name in ["2026-03-20.jsonl", "2026-03-24.jsonl", "2026-03-25.jsonl", "notes.txt"] {
            try Data("old\n".utf8).write(to: folder.appendingPathComponent(name))
        }
        let log = ProofOfPlayLog(folder: folder, keepDays: 3, calendar: Self.berlin)
        log.record(.proofOfPlay(Self.record(0, "2026-03-26T23:59:00+01:00", seconds: 30)))
        log.record(.native(action: .schedulePage, detail: "0 x"))  // not proof of play: not written
        // 23:59:50 + 30 s ends on the 27th in Berlin (22:59 UTC on the 26th): the 27th's file.
        log.record(.proofOfPlay(Self.record(1, "2026-03-26T23:59:50+01:00", seconds: 30)))
        log.record(.proofOfPlay(Self.record(2, "2026-03-27T10:00:00+01:00", seconds: 0, .skipped)))
        let names = Set(try FileManager.default.contentsOfDirectory(atPath: folder.path))
        // Kept 3 days up to the 27th: the 25th, 26th and 27th.
        #expect(names == ["2026-03-25.jsonl", "2026-03-26.jsonl", "2026-03-27.jsonl", "notes.txt"])
        let day26 = try lines(folder.appendingPathComponent("2026-03-26.jsonl"))
        #expect(day26.count == 1 && day26[0].contains(#""item":0"#))
        let day27 = try lines(folder.appendingPathComponent("2026-03-27.jsonl"))
        #expect(day27.count == 2 && day27[0].contains(#""item":1"#) && day27[1].contains(#""outcome":"skipped""#))
        for line in day26 + day27 { #expect(throws: Never.self) { try EventSchema.validate(line: line) } }
        let mode = try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent("2026-03-27.jsonl").path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test func aFolderOrDayFileThatIsASymlinkIsNeverWrittenThrough() throws {
        let base = try folder()
        defer { try? FileManager.default.removeItem(at: base) }
        let elsewhere = base.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        // The folder itself is a link to another folder.
        let linkedFolder = base.appendingPathComponent("proof-of-play")
        try FileManager.default.createSymbolicLink(at: linkedFolder, withDestinationURL: elsewhere)
        let log = ProofOfPlayLog(folder: linkedFolder, keepDays: 30, calendar: Self.berlin)
        var errors: [String] = []
        log.onError = { errors.append($0) }
        log.record(.proofOfPlay(Self.record(0, "2026-03-27T10:00:00+01:00", seconds: 5)))
        log.record(.proofOfPlay(Self.record(0, "2026-03-27T10:00:05+01:00", seconds: 5)))
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path).isEmpty)
        #expect(errors.count == 1, "one report per distinct failure: \(errors)")
        #expect(errors.first?.contains("symlink") == true)

        // A real folder whose day file is a link to a file elsewhere (a victim).
        let folder = base.appendingPathComponent("real")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let victim = base.appendingPathComponent("victim")
        try Data("precious\n".utf8).write(to: victim)
        try FileManager.default.createSymbolicLink(at: folder.appendingPathComponent("2026-03-27.jsonl"), withDestinationURL: victim)
        let second = ProofOfPlayLog(folder: folder, keepDays: 30, calendar: Self.berlin)
        #expect(throws: FileSystemError.self) { try second.append(Self.record(0, "2026-03-27T10:00:00+01:00", seconds: 5)) }
        #expect(try String(contentsOf: victim, encoding: .utf8) == "precious\n")
    }

    @Test func metricsCountEachItemsTurnsAndSeconds() {
        let metrics = ContainerMetrics(clock: ManualClock(), wallTime: 0)
        metrics.record(.proofOfPlay(Self.record(0, "2026-03-27T10:00:00+01:00", seconds: 30)))
        metrics.record(.proofOfPlay(Self.record(0, "2026-03-27T10:01:00+01:00", seconds: 12.5)))
        metrics.record(.proofOfPlay(Self.record(1, "2026-03-27T10:00:30+01:00", seconds: 0, .failed)))
        metrics.record(.proofOfPlay(Self.record(2, "2026-03-27T10:00:30+01:00", seconds: 0, .skipped)))
        func value(_ name: String, _ labels: [String: String]) -> Double? {
            metrics.families(memory: nil).first { $0.name == name }?.samples.first { sample in
                Dictionary(uniqueKeysWithValues: sample.labels.map { ($0.name, $0.value) }) == labels
            }?.value
        }
        #expect(value("vitrine_playlist_item_plays_total", ["item": "0", "outcome": "shown"]) == 2)
        #expect(value("vitrine_playlist_item_plays_total", ["item": "1", "outcome": "failed"]) == 1)
        #expect(value("vitrine_playlist_item_plays_total", ["item": "2", "outcome": "skipped"]) == 1)
        #expect(value("vitrine_playlist_item_seconds_total", ["item": "0"]) == 42.5)
        #expect(value("vitrine_playlist_item_seconds_total", ["item": "1"]) == nil, "a failed turn is not time on screen")
    }
}
