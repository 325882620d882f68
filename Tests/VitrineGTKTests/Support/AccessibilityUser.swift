import Foundation
import VitrineTestSupport

/// A user acting through assistive technology: one of Support's pyatspi scripts, run again
/// in a fresh process until its output says it is done (libatspi takes its view of the
/// desktop once per process), while `app` runs and for at most 30 s.
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
            user.standardError = FileHandle.nullDevice
            try user.run()
            said = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            user.waitUntilExit()
            if done(said) { return said }
            Thread.sleep(forTimeInterval: 0.2)
        } while app.isRunning && Date() < deadline
        return said
    }
}
