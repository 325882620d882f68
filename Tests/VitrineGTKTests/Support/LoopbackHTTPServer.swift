import Foundation

/// A static-file HTTP server on 127.0.0.1 (Python's http.server in a subprocess), for pages
/// of origins other than `app://`: `http://127.0.0.1:PORT` and `http://localhost:PORT` are
/// two origins served by one server.
final class LoopbackHTTPServer {
    let directory: URL
    let port: Int
    private let process: Process

    init(pages: [String: String]) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("vitrine-http-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for (path, content) in pages {
            try content.write(to: directory.appendingPathComponent(path), atomically: true, encoding: .utf8)
        }
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-u", "-m", "http.server", "--bind", "127.0.0.1", "--directory", directory.path, "0"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // "Serving HTTP on 127.0.0.1 port 41234 (http://127.0.0.1:41234/) ..."
        var buffer = ""
        let deadline = Date().addingTimeInterval(10)
        while !buffer.contains("\n") && Date() < deadline {
            buffer += String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
        }
        guard let match = buffer.range(of: #"port (\d+)"#, options: .regularExpression),
              let port = Int(buffer[match].dropFirst(5))
        else {
            process.terminate()
            throw ServerError(output: buffer)
        }
        self.port = port
    }

    func url(_ path: String, host: String = "127.0.0.1") -> URL {
        URL(string: "http://\(host):\(port)/\(path)")!
    }

    /// Stops the server. Not waiting: `waitUntilExit` spins a run loop that a main-actor
    /// test would block.
    func stop() {
        process.terminate()
        try? FileManager.default.removeItem(at: directory)
    }

    struct ServerError: Error, CustomStringConvertible {
        let output: String
        var description: String { "http.server did not start: \(output)" }
    }
}
