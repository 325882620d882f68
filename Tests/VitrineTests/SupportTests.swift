import Foundation
import Testing
import Vitrine

@Suite("Origin")
struct OriginTests {
    @Test func parsing() throws {
        let parsed = try #require(Origin(string: "https://shop.example.com/some/path?q=1#f"))
        #expect(parsed.scheme == "https")
        #expect(parsed.host == "shop.example.com")
        #expect(parsed.port == nil)
        #expect(parsed.description == "https://shop.example.com")
    }

    @Test func defaultPortsAreElided() {
        #expect(origin("http://a.test:80") == origin("http://a.test"))
        #expect(origin("https://a.test:443") == origin("https://a.test"))
        #expect(origin("ws://a.test:80").port == nil)
        #expect(origin("wss://a.test:443").port == nil)
        #expect(origin("https://a.test:443").description == "https://a.test")
    }

    @Test func otherPortsAreKept() {
        #expect(origin("http://localhost:8080").port == 8080)
        #expect(origin("http://localhost:8080").description == "http://localhost:8080")
        #expect(origin("https://a.test:80").port == 80, "80 is not https's default")
        #expect(origin("http://a.test:443") != origin("http://a.test"))
        #expect(origin("http://localhost:8080") != origin("http://localhost:8081"))
    }

    @Test func comparisonIsCaseInsensitive() {
        #expect(origin("HTTPS://Shop.EXAMPLE.com") == origin("https://shop.example.com"))
        #expect(origin("HTTPS://Shop.EXAMPLE.com").description == "https://shop.example.com")
        #expect(Set([origin("HTTP://A.test"), origin("http://a.test:80")]).count == 1)
    }

    @Test func schemeAndHostMatter() {
        #expect(origin("http://a.test") != origin("https://a.test"))
        #expect(origin("https://a.test") != origin("https://b.a.test"))
    }

    @Test(arguments: ["data:text/html,hello", "javascript:alert(1)", "about:blank", "file:///etc/passwd", "mailto:a@b.test"])
    func opaqueOriginsAreNil(_ string: String) {
        #expect(Origin(url(string)) == nil)
        #expect(Origin(string: string) == nil)
    }

    @Test func customSchemesHaveOrigins() {
        #expect(origin("app://demo/index.html").description == "app://demo")
        #expect(origin("app://demo:9/").port == 9)
    }
}

@Suite("JSONValue")
struct JSONValueTests {
    @Test func boolsStayBoolsAndNumbersStayNumbers() throws {
        #expect(try JSONValue(parsing: "true") == .bool(true))
        #expect(try JSONValue(parsing: "false") == .bool(false))
        #expect(try JSONValue(parsing: "1") == .number(1))
        #expect(try JSONValue(parsing: "0") == .number(0))
        #expect(try JSONValue(parsing: "-2.5") == .number(-2.5))
        #expect(try JSONValue(parsing: "1e3") == .number(1000))
        #expect(try JSONValue(parsing: "[true, 1, 0, false]") == .array([.bool(true), .number(1), .number(0), .bool(false)]))
    }

    @Test func fragments() throws {
        #expect(try JSONValue(parsing: #""hello""#) == .string("hello"))
        #expect(try JSONValue(parsing: "null") == .null)
        #expect(try JSONValue(parsing: "42") == 42)
        #expect(try JSONValue(parsing: #""""#) == "")
        #expect(try JSONValue(parsing: "[]") == .array([]))
        #expect(try JSONValue(parsing: "{}") == .object([:]))
    }

    @Test func nestedObjects() throws {
        let value = try JSONValue(parsing: #"{"a": {"b": [1, {"c": null}], "d": "x"}, "e": true}"#)
        #expect(value == .object([
            "a": .object(["b": .array([.number(1), .object(["c": .null])]), "d": .string("x")]),
            "e": .bool(true),
        ]))
        #expect(value["a"]?["d"]?.stringValue == "x")
        #expect(value["e"] == true)
        #expect(value["missing"] == nil)
        #expect(value["a"]?["b"]?["c"] == nil, "subscripting a non-object gives nil")
    }

    @Test(arguments: ["", "{", "[1,", "tru", "{'a': 1}", "undefined"])
    func invalidTextThrows(_ text: String) {
        #expect(throws: (any Error).self) { try JSONValue(parsing: text) }
    }

    @Test func accessors() {
        #expect(JSONValue.string("s").stringValue == "s")
        #expect(JSONValue.number(3).stringValue == nil)
        #expect(JSONValue.number(3).numberValue == 3)
        #expect(JSONValue.bool(true).numberValue == nil)
        #expect(JSONValue.string("3").numberValue == nil)
    }

    @Test func literals() {
        let value: JSONValue = ["s": "x", "i": 2, "f": 1.5, "b": false, "n": nil, "a": [1, "two"]]
        #expect(value == .object([
            "s": .string("x"), "i": .number(2), "f": .number(1.5), "b": .bool(false), "n": .null,
            "a": .array([.number(1), .string("two")]),
        ]))
    }

    @Test func jsonTextIsCompactInMemberOrder() {
        let value: JSONValue = ["zeta": 1, "alpha": ["b": true, "a": nil], "mid": [1.5, "x/y"]]
        #expect(value.jsonText == #"{"zeta":1,"alpha":{"b":true,"a":null},"mid":[1.5,"x/y"]}"#)
        #expect(JSONValue.number(3).jsonText == "3", "whole numbers print without a fraction")
        #expect(JSONValue.number(-0.25).jsonText == "-0.25")
        #expect(JSONValue.string("a\"b").jsonText == #""a\"b""#)
        #expect(JSONValue.null.jsonText == "null")
        #expect(JSONValue.bool(false).jsonText == "false")
    }

    @Test func roundTrip() throws {
        let original: JSONValue = [
            "name": "Vitrine", "count": 3, "ratio": 0.5, "on": true, "off": false, "none": nil,
            "list": [1, [2, [3]], ["deep": "x"]], "unicode": "café ☕", "big": 9_007_199_254_740_993,
        ]
        let text = original.jsonText
        let parsed = try JSONValue(parsing: text)
        #expect(parsed == original)
        #expect(parsed.jsonText == text, "printing is stable")
    }

    @Test func codableThroughFoundation() throws {
        let value: JSONValue = ["a": [1, true, "x"]]
        let data = try JSONEncoder().encode(value)
        #expect(try JSONDecoder().decode(JSONValue.self, from: data) == value)
    }
}

@Suite("ContainerEvent")
struct ContainerEventTests {
    func keys(_ value: JSONValue) -> Set<String> {
        if case .object(let members) = value { return Set(members.keys) }
        return []
    }

    @Test func navigationShape() {
        let event = ContainerEvent.navigation(url: "https://a.test/", handler: "deep-link", policy: .cancel,
                                              navigationType: .linkActivated, target: .currentView, phase: .request)
        let json = event.json
        #expect(keys(json).isSuperset(of: ["type", "url", "handler", "policy"]))
        #expect(json["type"] == "navigation")
        #expect(json["url"] == "https://a.test/")
        #expect(json["handler"] == "deep-link")
        #expect(json["policy"] == "cancel")
        #expect(json["navigationType"] == "linkActivated")
        #expect(json["target"] == "currentView")
        #expect(json["phase"] == "request")
    }

    @Test func messageShape() {
        let ok = ContainerEvent.message(name: "page", outcome: .resolved, error: nil).json
        #expect(keys(ok) == ["type", "name", "outcome"])
        #expect(ok == ["type": "message", "name": "page", "outcome": "resolved"])
        let failed = ContainerEvent.message(name: "camera", outcome: .rejected, error: "no strategy").json
        #expect(keys(failed) == ["type", "name", "outcome", "error"])
        #expect(failed["error"] == "no strategy")
    }

    @Test func loadShape() {
        let finished = ContainerEvent.load(event: .finished, url: "app://demo/index.html", error: nil).json
        #expect(keys(finished) == ["type", "event", "url", "shown"])
        #expect(finished == ["type": "load", "event": "finished", "url": "app://demo/index.html", "shown": "live"])
        let failed = ContainerEvent.load(event: .failed, url: "https://x.test/", error: "TLS").json
        #expect(failed["error"] == "TLS")
    }
}

@MainActor
@Suite("JSONLinesEventLog")
struct JSONLinesEventLogTests {
    @Test func appendsOneParsableLinePerEvent() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("events.jsonl").path

        let events: [ContainerEvent] = [
            .navigation(url: "https://a.test/", handler: "default-allow", policy: .allow,
                        navigationType: .other, target: .currentView, phase: .request),
            .message(name: "user", outcome: .resolved, error: nil),
            .load(event: .finished, url: "https://a.test/", error: nil),
            // The same event twice in a row (its line is reused), then one that differs only in origin.
            .message(name: "ping", outcome: .rejected, error: "quote \" and\nnewline", origin: "https://a.test"),
            .message(name: "ping", outcome: .rejected, error: "quote \" and\nnewline", origin: "https://a.test"),
            .message(name: "ping", outcome: .rejected, error: "quote \" and\nnewline", origin: "https://b.test"),
            .permission(kind: "camera", origin: "https://a.test", granted: false),
            .native(action: .emit, detail: "cart/changed"),
        ]
        let log = try JSONLinesEventLog(path: path)
        log.record(events[0])
        log.record(events[1])
        // Written at once, not when the log goes away.
        #expect(try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").count == 2)
        for event in events.dropFirst(2) { log.record(event) }

        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.hasSuffix("\n"))
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == events.count)
        let parsed = try lines.map { try JSONValue(parsing: String($0)) }
        #expect(parsed == events.map(\.json))
        #expect(parsed.map { $0["type"] } == ["navigation", "message", "load", "message", "message", "message", "permission", "native"])
        #expect(parsed[6] == ["type": "permission", "kind": "camera", "origin": "https://a.test", "granted": false])
        #expect(parsed[7] == ["type": "native", "action": "emit", "detail": "cart/changed"])
        #expect(parsed[5] == ["type": "message", "name": "ping", "outcome": "rejected",
                              "error": "quote \" and\nnewline", "origin": "https://b.test"])
        #expect(lines[3] == lines[4] && lines[4] != lines[5])
        #expect(lines[7].contains(#""detail":"cart/changed""#), "slashes are not escaped")
    }

    @Test func appendsToAnExistingFile() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("events.jsonl").path
        try #"{"type":"earlier"}"#.appending("\n").write(toFile: path, atomically: true, encoding: .utf8)

        let log = try JSONLinesEventLog(path: path)
        log.record(.message(name: "page", outcome: .resolved, error: nil))
        let second = try JSONLinesEventLog(path: path)
        second.record(.load(event: .started, url: "about:blank", error: nil))

        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 3)
        let types = try lines.map { try JSONValue(parsing: String($0))["type"] }
        #expect(types == ["earlier", "message", "load"])
    }

    /// With a flush scheduler, lines wait in memory for the scheduled flush (one write for a
    /// burst), are written at once past the batch limit, and never lost when the log goes.
    @Test func batchedLinesWaitForTheScheduledFlush() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("events.jsonl").path
        func lineCount() throws -> Int {
            try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").count
        }

        var scheduled: [@MainActor () -> Void] = []
        var log: JSONLinesEventLog? = try JSONLinesEventLog(path: path) { scheduled.append($0) }
        for number in 0..<3 { log?.record(.native(action: .emit, detail: "event \(number)")) }
        #expect(try lineCount() == 0, "nothing written before the flush runs")
        #expect(scheduled.count == 1, "one flush scheduled for the whole burst")
        scheduled.removeFirst()()
        #expect(try lineCount() == 3)
        log?.record(.native(action: .emit, detail: "next burst"))
        #expect(scheduled.count == 1, "the next burst schedules its own flush")
        scheduled.removeFirst()()
        #expect(try lineCount() == 4)

        // Past the batch limit the lines go out without waiting for the scheduler.
        let detail = String(repeating: "x", count: 1000)
        var recorded = 0
        while (recorded + 1) * 1000 < JSONLinesEventLog.batchLimit + 2000 {
            log?.record(.native(action: .emit, detail: detail + String(recorded)))
            recorded += 1
        }
        #expect(try lineCount() > 3, "the limit forced a write")
        #expect(scheduled.count == 1, "its scheduled flush is still to run: no second one")

        log?.record(.native(action: .emit, detail: "last"))
        log = nil // released before its flush ran: the lines are written anyway
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 4 + recorded + 1)
        #expect(try JSONValue(parsing: String(lines.last!))["detail"] == "last")
        scheduled.removeFirst()() // a flush that runs after the log is gone does nothing
    }

    @Test func unwritablePathThrows() {
        #expect(throws: ConfigurationError.self) {
            try JSONLinesEventLog(path: "/nonexistent-directory-\(UUID().uuidString)/events.jsonl")
        }
    }
}

@Suite("ResourceLocator")
struct ResourceLocatorTests {
    @Test func overrideComesFirst() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let locator = ResourceLocator(environment: ["VITRINE_RESOURCES": directory.path],
                                      executable: URL(fileURLWithPath: "/usr/bin/vitrine"))
        #expect(locator.directory.path == directory.path)
        #expect(locator.demoDirectory.path == directory.appendingPathComponent("demo").path)
    }

    @Test func installedDataDirectoryComesNext() throws {
        let prefix = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: prefix) }
        let share = prefix.appendingPathComponent("share/vitrine")
        try FileManager.default.createDirectory(at: share, withIntermediateDirectories: true)
        let locator = ResourceLocator(environment: ["VITRINE_RESOURCES": ""],
                                      executable: prefix.appendingPathComponent("bin/vitrine"))
        #expect(locator.directory.path == share.path)
    }

    @Test func candidatesInOrder() {
        let candidates = ResourceLocator.candidates(
            environment: ["VITRINE_RESOURCES": "/override"], executable: URL(fileURLWithPath: "/usr/bin/vitrine"),
            sourceFile: "/src/vitrine/Sources/Vitrine/Support/ResourceLocator.swift")
        #expect(candidates.map(\.path) == ["/override", "/usr/bin/vitrine-resources", "/usr/share/vitrine"],
                "an installed program never uses the source tree")
        let inBuildFolder = ResourceLocator.candidates(
            environment: [:], executable: URL(fileURLWithPath: "/src/vitrine/.build/debug/vitrine"),
            sourceFile: "/src/vitrine/Sources/Vitrine/Support/ResourceLocator.swift")
        #expect(inBuildFolder.map(\.path) == ["/src/vitrine/.build/debug/vitrine-resources", "/src/vitrine/.build/share/vitrine",
                                             "/src/vitrine/Resources"])
    }

    /// The source-tree fallback must point at this package's Resources whoever calls it
    /// (a default `#filePath` argument would be the caller's file, not the core's).
    @Test func sourceTreeFallbackIsThePackagesResources() throws {
        let root = try #require(packageRoot())
        let locator = ResourceLocator(environment: [:], executable: URL(fileURLWithPath: "/nonexistent/.build/debug/vitrine"))
        #expect(locator.directory.standardizedFileURL.path == root.appendingPathComponent("Resources").standardizedFileURL.path)
    }
}
