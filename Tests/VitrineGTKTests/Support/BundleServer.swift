import Foundation
import VitrineTestSupport

/// A loopback bundle server (`bundle_server.py` beside this file): serves zips written by
/// the test with an ETag, answers If-None-Match with 304, and can be stopped and started
/// again on the same port (the network gone, then back).
final class BundleServer {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("bundle_server.py")

    let directory: URL
    private(set) var port = 0
    private var process: Process?
    var requestLog: String { directory.path + ".requests" }

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("vitrine-bundles-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try start()
    }

    func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)/\(path)")! }

    /// Writes the zip `name` with `files` (path → text), `symlinks` (path → target) and
    /// `zeros` (path → a size: that many zero bytes, compressed).
    func publish(_ name: String, files: [String: String], symlinks: [String: String] = [:], zeros: [String: Int] = [:]) throws {
        let out = directory.appendingPathComponent(name)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        // Written beside, then renamed: a request never reads half a zip.
        process.arguments = ["python3", Self.script.path, "zip", out.path + ".new"] + files.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            + symlinks.flatMap { ["--symlink", "\($0.key)=\($0.value)"] } + zeros.flatMap { ["--zeros", "\($0.key)=\($0.value)"] }
        try process.run()
        // Not waitUntilExit: it spins a run loop that a main-actor test would block.
        guard waitForExit(of: process, timeout: 30), process.terminationStatus == 0 else { throw ServerError(output: "zip failed") }
        _ = rename(out.path + ".new", out.path)
    }

    /// Starts serving (on the port it had, after `stop`).
    func start() throws {
        let (process, port) = try startPortServer(Self.script, ["--directory", directory.path, "--port", String(port), "--log", requestLog])
        self.port = port
        self.process = process
    }

    /// Stops serving: connections to its port are refused until `start`.
    func stop() {
        guard let process else { return }
        kill(process.processIdentifier, SIGKILL)
        _ = waitForExit(of: process, timeout: 10)
        self.process = nil
    }

    /// Stops and removes its files.
    func close() {
        stop()
        try? FileManager.default.removeItem(at: directory)
        try? FileManager.default.removeItem(atPath: requestLog)
    }

    struct ServerError: Error, CustomStringConvertible {
        let output: String
        var description: String { "bundle_server.py: \(output)" }
    }
}
