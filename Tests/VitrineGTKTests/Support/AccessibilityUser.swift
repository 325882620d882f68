import Foundation
import VitrineTestSupport

/// A user acting through assistive technology: one of Support's pyatspi scripts, run again
/// in a fresh process until its output says it is done (libatspi takes its view of the
/// desktop once per process), while `app` runs and for at most 30 s. When a run prints
/// nothing, what it printed on its standard error stands for it.
enum AccessibilityUser {
    /// The script's last output.
    static func run(_ script: String, _ arguments: [String], environment: [String: String], app: ProgramRun,
                    until done: (String) -> Bool) throws -> String {
        var said = ""
        let deadline = Date().addingTimeInterval(30)
        repeat {
            let user = Process()
            user.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
            user.arguments = [URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(script).path] + arguments
            user.environment = environment
            let output = Pipe()
            user.standardOutput = output
            // Its complaints go to a file: a pipe read after the output could fill and block it.
            let errors = FileManager.default.temporaryDirectory.appendingPathComponent("vitrine-atspi-\(UUID().uuidString).err")
            _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
            defer { try? FileManager.default.removeItem(at: errors) }
            user.standardError = try FileHandle(forWritingTo: errors)
            try user.run()
            said = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            user.waitUntilExit()
            let complaint = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
            if done(said) { return said }
            if said.isEmpty { said = complaint }
            Thread.sleep(forTimeInterval: 0.2)
        } while app.isRunning && Date() < deadline
        return said
    }
}

/// The display's accessibility bus: libatspi looks for it in the root window's `AT_SPI_BUS`
/// property before it asks the session bus, and an at-spi-bus-launcher that was killed
/// leaves its address there, so a later program and its AT-SPI user would both try a dead
/// socket. The tests share one display, one at a time.
enum AccessibilityBus {
    static func forgetDisplayProperty() throws {
        let run = try runProcess("/usr/bin/xprop", ["-root", "-remove", "AT_SPI_BUS"], timeout: 10)
        guard run.status == 0 else { throw LoopbackHTTPServer.ServerError(output: "xprop: \(run.stderr)") }
    }
}
