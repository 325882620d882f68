import Foundation
import Synchronization

// Helpers shared by the test targets, display-free ones included: temporary folders, the
// built products next to the test bundle, and subprocesses run to completion.

/// A temporary folder for configuration files and the files they name.
public struct ConfigFolder: ~Copyable {
    public let url: URL

    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("vitrine-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    public var path: String { url.path }

    /// Writes `text` to `name` inside the folder (creating subfolders) and returns its path.
    @discardableResult
    public func write(_ name: String, _ text: String) throws -> String {
        let file = url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }

    @discardableResult
    public func makeFolder(_ name: String) throws -> String {
        let folder = url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.path
    }
}

/// Locates built products (the `vitrine` program, the loop check) next to the test bundle.
public enum BuiltProducts {
    public static func path(_ name: String) throws -> String {
        keepAppDataInThisRun()
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate.path }
            directory = directory.deletingLastPathComponent()
        }
        throw ProductNotFound(name: name)
    }

    /// The programs the tests run keep their apps' own data (storage capability, remembered
    /// window state) in a folder of this test run, never the user's: `XDG_DATA_HOME`, set
    /// before any of them starts, is inherited by each.
    public static func keepAppDataInThisRun() {
        guard getenv("VITRINE_TESTS_DATA_SET") == nil else { return }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vitrine-tests-data-\(getpid())").path
        setenv("XDG_DATA_HOME", folder, 1)
        setenv("VITRINE_TESTS_DATA_SET", "1", 1)
    }

    struct ProductNotFound: Error, CustomStringConvertible {
        let name: String
        var description: String { "built product '\(name)' not found next to the test bundle; run swift build first" }
    }
}

/// Runs a program to completion with a time limit; returns exit status and output.
public func runProcess(_ path: String, _ arguments: [String], timeout: TimeInterval = 60, environment: [String: String]? = nil) throws -> (status: Int32, stdout: String, stderr: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    if let environment { process.environment = environment }
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let deadline = Date().addingTimeInterval(timeout)
    // Read while waiting so a chatty child never blocks on a full pipe.
    let stdoutData = Mutex(Data()), stderrData = Mutex(Data())
    let group = DispatchGroup()
    group.enter()
    DispatchQueue.global().async { stdoutData.withLock { $0 = out.fileHandleForReading.readDataToEndOfFile() }; group.leave() }
    group.enter()
    DispatchQueue.global().async { stderrData.withLock { $0 = err.fileHandleForReading.readDataToEndOfFile() }; group.leave() }
    while process.isRunning && Date() < deadline { usleep(20_000) }
    if process.isRunning { process.terminate(); kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
    group.wait()
    return (process.terminationStatus, String(decoding: stdoutData.withLock { $0 }, as: UTF8.self),
            String(decoding: stderrData.withLock { $0 }, as: UTF8.self))
}
