import Foundation
import Synchronization
import VitrineTesting

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

    /// The programs the tests run keep their apps' own data in a folder of this test run.
    public static func keepAppDataInThisRun() {
        AppDataIsolation.keepAppDataInThisRun()
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
    // Read while waiting so a chatty child never blocks on a full pipe.
    let stdoutData = Mutex(Data()), stderrData = Mutex(Data())
    let group = DispatchGroup()
    group.enter()
    DispatchQueue.global().async { stdoutData.withLock { $0 = out.fileHandleForReading.readDataToEndOfFile() }; group.leave() }
    group.enter()
    DispatchQueue.global().async { stderrData.withLock { $0 = err.fileHandleForReading.readDataToEndOfFile() }; group.leave() }
    if !waitForExit(of: process, timeout: timeout) { process.terminate(); kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
    group.wait()
    return (process.terminationStatus, String(decoding: stdoutData.withLock { $0 }, as: UTF8.self),
            String(decoding: stderrData.withLock { $0 }, as: UTF8.self))
}
