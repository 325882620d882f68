import Foundation
import Glibc
import Synchronization
import Testing
import VitrineTestSupport

/// The built `vitrine` (or another program) run for a test that needs the program itself
/// (restarts, the session bus, the sandbox): started with its output read as it comes, and
/// waited on by facts — its events, its output, files it or a server writes, its exit —
/// with a deadline, never by sleeping. Every window test that starts a program uses this.
final class ProgramRun: @unchecked Sendable {
    let process = Process()
    /// Where the program's events go (`--events FILE`), if it was given one.
    let eventsFile: String?
    private let facts: FactWait
    private let output = Mutex((stdout: Data(), stderr: Data()))
    private let readers = DispatchGroup()
    private let ended = DispatchSemaphore(value: 0)

    /// Starts `executable` (the built `vitrine` by default) with `arguments`; `watching`
    /// names files whose changes are facts to wait on besides the program's events file
    /// (a server's request log, say).
    init(_ arguments: [String], environment: [String: String]? = nil, executable: String? = nil,
         watching: [String] = [], standardInput: Any? = nil) throws {
        process.executableURL = URL(fileURLWithPath: try executable ?? BuiltProducts.path("vitrine"))
        process.arguments = arguments
        if let environment { process.environment = environment }
        let events = arguments.firstIndex(of: "--events").flatMap { arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil }
        eventsFile = events == "-" ? nil : events
        facts = FactWait(watching: watching + (eventsFile.map { [$0] } ?? []))
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        if let standardInput { process.standardInput = standardInput }
        let facts = facts, ended = ended
        process.terminationHandler = { _ in
            ended.signal()
            facts.wake()
        }
        try process.run()
        read(out.fileHandleForReading, standardError: false)
        read(err.fileHandleForReading, standardError: true)
    }

    /// Reads `handle` on a thread of its own until its end, each chunk waking the waits.
    private func read(_ handle: FileHandle, standardError: Bool) {
        readers.enter()
        let facts = facts
        Thread.detachNewThread { [self] in
            while true {
                let data = handle.availableData
                if data.isEmpty { break }
                output.withLock { if standardError { $0.stderr.append(data) } else { $0.stdout.append(data) } }
                facts.wake()
            }
            readers.leave()
        }
    }

    /// The environment of the tests with `XDG_DATA_HOME` (the apps' own data) at `dataHome`.
    static func environment(dataHome: String) -> [String: String] {
        ProcessInfo.processInfo.environment.merging(["XDG_DATA_HOME": dataHome]) { $1 }
    }

    var isRunning: Bool { process.isRunning }
    var standardOutput: String { String(decoding: output.withLock { $0.stdout }, as: UTF8.self) }
    var standardError: String { String(decoding: output.withLock { $0.stderr }, as: UTF8.self) }

    /// The lines of the program's events file (or of its standard output with `--events -`),
    /// parsed (`EventLine.parse`).
    var events: [[String: Any]] {
        let text = eventsFile.map { (try? String(contentsOfFile: $0, encoding: .utf8)) ?? "" } ?? standardOutput
        return EventLine.parseAll(text)
    }

    /// Waits (`timeout` at most, or until the program ends) for `condition`, checked again
    /// whenever the program writes, a watched file changes or the program ends; whether it held.
    @discardableResult
    func wait(timeout: TimeInterval = 30, until condition: () -> Bool) -> Bool {
        facts.wait(timeout: timeout) { condition() || !process.isRunning }
        return condition()
    }

    /// Waits for an event line that `matches`; the first one, or nil after `timeout`.
    @discardableResult
    func waitForEvent(timeout: TimeInterval = 30, where matches: ([String: Any]) -> Bool) -> [String: Any]? {
        var found: [String: Any]?
        wait(timeout: timeout) {
            found = events.first(where: matches)
            return found != nil
        }
        return found
    }

    /// Waits (`timeout` at most) for the program to end by itself; whether it did.
    @discardableResult
    func waitForExit(timeout: TimeInterval = 30) -> Bool {
        if ended.wait(timeout: .now() + timeout) == .success { ended.signal() } // others may wait too
        return !process.isRunning
    }

    /// Ends the program as a desktop session would (SIGTERM) and waits for it (SIGKILL after
    /// `timeout`); whether it ended by itself in time. Its output is then read to the end.
    @discardableResult
    func end(timeout: TimeInterval = 20) -> Bool {
        if process.isRunning { Glibc.kill(process.processIdentifier, SIGTERM) }
        let inTime = waitForExit(timeout: timeout)
        if !inTime { Glibc.kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        _ = readers.wait(timeout: .now() + 5) // web processes may hold the pipes a moment longer
        return inTime
    }

    /// Kills the program at once (for a test's `defer`: does nothing once it has ended).
    func kill() {
        if process.isRunning { Glibc.kill(process.processIdentifier, SIGKILL) }
    }

    deinit { kill() }
}

/// A line of an events log as a dictionary (nil for a line that is not a JSON object). The
/// one place the tests read event lines: what the program writes is checked as a whole
/// object, field by field, never by substring.
enum EventLine {
    static func parse<Line: StringProtocol>(_ line: Line) -> [String: Any]? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
        // Every line a test reads is held to the events' one written schema.
        do { try EventSchema.validate(line: String(line)) } catch {
            Issue.record("not an event line of Resources/events.schema.json (\(error)): \(line)")
        }
        return object
    }

    /// Every line of `text` that parses (see `parse`), in order.
    static func parseAll(_ text: String) -> [[String: Any]] {
        text.split(separator: "\n").compactMap { parse($0) }
    }
}

/// The `detail` of every `action` line of a program's events log, in order.
func eventDetails(_ action: String, in log: String) -> [String] {
    eventLines(in: log).filter { $0["action"] == action }.compactMap { $0["detail"] }
}

/// Every line of a program's events log with string fields only (the others are left out).
func eventLines(in log: String) -> [[String: String]] {
    EventLine.parseAll((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").map { $0.compactMapValues { $0 as? String } }
}
