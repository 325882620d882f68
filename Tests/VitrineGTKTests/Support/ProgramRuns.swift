import Foundation
import Testing
import VitrineTestSupport

/// The built `vitrine` run once for a test that needs the program itself (restarts, the
/// session bus): started with its output discarded, ended with SIGTERM once the test has
/// seen what it waited for.
struct ProgramRun {
    let process = Process()

    init(_ arguments: [String], environment: [String: String]) throws {
        process.executableURL = URL(fileURLWithPath: try BuiltProducts.path("vitrine"))
        process.arguments = arguments
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    /// The environment of the tests with `XDG_DATA_HOME` (the apps' own data) at `dataHome`.
    static func environment(dataHome: String) -> [String: String] {
        ProcessInfo.processInfo.environment.merging(["XDG_DATA_HOME": dataHome]) { $1 }
    }

    /// Waits (30 s at most, or until the program ends) for `condition`; whether it held.
    @discardableResult
    func wait(until condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(30)
        while !condition() && process.isRunning && Date() < deadline { usleep(50_000) }
        return condition()
    }

    /// Ends the program as a desktop session would (SIGTERM), and waits for it.
    func end() {
        if process.isRunning { kill(process.processIdentifier, SIGTERM) }
        process.waitUntilExit()
    }
}

/// The `detail` of every `action` line of a program's events log, in order.
func eventDetails(_ action: String, in log: String) -> [String] {
    eventLines(in: log).filter { $0["action"] == action }.compactMap { $0["detail"] }
}

/// Every line of a program's events log with string fields only (the others are left out).
func eventLines(in log: String) -> [[String: String]] {
    let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
    return text.split(separator: "\n").compactMap { line in
        (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?.compactMapValues { $0 as? String }
    }
}

/// A stand-in desktop service (a python3-gi script of Support/) on a private session bus,
/// printing a line per call it gets; ready once it printed "READY".
struct StandInService {
    let process = Process()
    private let calls = Pipe()

    init(_ script: String, bus: PrivateSessionBus, sourceLocation: SourceLocation = #_sourceLocation) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(script).path]
        process.environment = bus.environment
        process.standardOutput = calls
        process.standardError = FileHandle.nullDevice
        try process.run()
        try #require(firstLine(of: calls).hasPrefix("READY"), "the stand-in service \(script) did not start",
                     sourceLocation: sourceLocation)
    }

    /// Stops the service; the lines it printed after "READY".
    func stop() -> [String] {
        kill(process.processIdentifier, SIGKILL)
        return String(decoding: calls.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .split(separator: "\n").map(String.init)
    }
}
