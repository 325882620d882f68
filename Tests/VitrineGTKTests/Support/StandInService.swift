import Foundation
import Testing

/// A stand-in desktop service (a python3-gi script of Support/) on a private session bus,
/// printing a line per call it gets; ready once it printed "READY".
struct StandInService {
    let process = Process()
    private let calls = Pipe()

    init(_ script: String, _ arguments: [String] = [], bus: PrivateSessionBus, sourceLocation: SourceLocation = #_sourceLocation) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(script).path] + arguments
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
