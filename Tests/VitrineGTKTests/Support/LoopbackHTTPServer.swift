import Foundation
import VitrineTestSupport

/// A loopback HTTP(S) server (`test_server.py` beside this file) for pages of origins other
/// than `app://`: `http://127.0.0.1:PORT` and `http://localhost:PORT` are two origins served
/// by one server. It also redirects (`/redirect?to=URL`).
final class LoopbackHTTPServer {
    let directory: URL
    let port: Int
    let scheme: String
    private let process: Process

    /// Serves `pages` (path → content). With `tls`, serves HTTPS with that certificate.
    /// `arguments` are test_server.py's further options (`--basic USER:PASS`, `--require-via`).
    init(pages: [String: String], port: Int = 0, tls: (certificate: String, key: String)? = nil, directory: URL? = nil,
         arguments: [String] = []) throws {
        self.directory = directory ?? FileManager.default.temporaryDirectory.appendingPathComponent("vitrine-http-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: self.directory, withIntermediateDirectories: true)
        for (path, content) in pages {
            let file = self.directory.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try content.write(to: file, atomically: true, encoding: .utf8)
        }
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("test_server.py")
        scheme = tls == nil ? "http" : "https"
        (process, self.port) = try startPortServer(script, ["--directory", self.directory.path, "--port", String(port),
                                                            "--log", self.directory.path + ".requests"]
            + (tls.map { ["--cert", $0.certificate, "--key", $0.key] } ?? []) + arguments)
    }

    func url(_ path: String, host: String = "127.0.0.1") -> URL {
        URL(string: "\(scheme)://\(host):\(port)/\(path)")!
    }

    /// The file the server appends each requested path to (a `ProgramRun` may watch it).
    var requestLog: String { directory.path + ".requests" }

    /// The paths requested so far, in order (query included).
    var requestedPaths: [String] {
        let log = (try? String(contentsOfFile: requestLog, encoding: .utf8)) ?? ""
        return log.split(separator: "\n").map(String.init)
    }

    /// Waits (`timeout` at most) until the requested paths satisfy `condition`, checked
    /// again at each request; whether they did.
    @discardableResult
    func waitForRequests(timeout: TimeInterval = 30, until condition: ([String]) -> Bool) -> Bool {
        FactWait(watching: [requestLog]).wait(timeout: timeout) { condition(requestedPaths) }
    }

    /// Stops the server and waits for it to end (its port is closed then). Not with
    /// `waitUntilExit`: it spins a run loop that a main-actor test would block.
    func stop(removingFiles: Bool = true) {
        kill(process.processIdentifier, SIGKILL)
        waitForExit(of: process, timeout: 10)
        if removingFiles {
            try? FileManager.default.removeItem(at: directory)
            try? FileManager.default.removeItem(atPath: directory.path + ".requests")
        }
    }

    /// Whether something accepts TCP connections on 127.0.0.1:`port`.
    static func isListening(port: Int) -> Bool {
        guard let fd = connectedSocket(port: port) else { return false }
        close(fd)
        return true
    }

    /// A TCP socket connected to 127.0.0.1:`port` (the caller closes it), or nil.
    static func connectedSocket(port: Int) -> Int32? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        guard connected else {
            close(fd)
            return nil
        }
        return fd
    }

    struct ServerError: Error, CustomStringConvertible {
        let output: String
        var description: String { output }
    }
}

/// Process IDs of the web processes (named WebKitWebProcess) under `root`, however deep.
func webProcessIDs(of root: Int32 = getpid()) -> [Int32] {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return entries.compactMap { Int32($0) }.filter { pid in
        processName(pid)?.hasPrefix("WebKitWebProces") == true && processAncestors(pid).contains(root)
    }
}

/// A /proc file's bytes, whole (empty once the process has gone): `Data(contentsOf:)` and
/// `String(contentsOfFile:)` stop at its first 4 KB, since /proc gives files no size.
func procFile(_ path: String) -> Data {
    FileHandle(forReadingAtPath: path)?.readDataToEndOfFile() ?? Data()
}

/// A process's name (`comm`, at most 15 characters), nil once it has gone.
func processName(_ pid: Int32) -> String? {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
          let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")") else { return nil }
    return String(stat[stat.index(after: open)..<close])
}

/// A process's parent, its parent's parent… up to (not including) init; sandboxed web
/// processes are under bubblewrap's own processes.
func processAncestors(_ pid: Int32) -> [Int32] {
    var chain: [Int32] = []
    var current = pid
    while chain.count < 64, let stat = try? String(contentsOfFile: "/proc/\(current)/stat", encoding: .utf8),
          let close = stat.lastIndex(of: ")") {
        let fields = stat[stat.index(close, offsetBy: 2)...].split(separator: " ")
        guard fields.count > 1, let parent = Int32(fields[1]), parent > 1 else { break }
        chain.append(parent)
        current = parent
    }
    return chain
}

/// Starts the Python server `script` with `arguments`, which announces the port it listens
/// on in its first line (`PORT n`); the process and the port.
func startPortServer(_ script: URL, _ arguments: [String]) throws -> (Process, Int) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-u", script.path] + arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let line = firstLine(of: output)
    guard line.hasPrefix("PORT "), let port = Int(line.dropFirst(5).trimmingCharacters(in: .whitespacesAndNewlines)) else {
        process.terminate()
        throw LoopbackHTTPServer.ServerError(output: "\(script.lastPathComponent) did not start: \(line)")
    }
    return (process, port)
}

/// The first line a subprocess writes to `pipe` (waiting up to 10 s): servers here announce
/// their port or address that way.
func firstLine(of pipe: Pipe) -> String {
    var buffer = ""
    let deadline = Date().addingTimeInterval(10)
    while !buffer.contains("\n") && Date() < deadline {
        let data = pipe.fileHandleForReading.availableData
        if data.isEmpty { break } // end of file: the process exited
        buffer += String(decoding: data, as: UTF8.self)
    }
    return buffer
}
