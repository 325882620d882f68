import Foundation
import VitrineTestSupport

/// openbox on the test display, for tests that need a real window manager. `stop()` asks it
/// to exit (`openbox --exit`, a message on the display: the test process's children may
/// have SIGTERM blocked) and waits: openbox then hands the keyboard focus back to the pointer root and
/// takes its EWMH properties off the root window. Killed outright, it leaves the focus on
/// nothing (every later key press, grabs included, goes nowhere) and its properties behind
/// for the tests that run after it.
final class Openbox {
    private let process = Process()

    init() throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openbox")
        process.arguments = ["--sm-disable"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    func stop() {
        guard process.isRunning else { return }
        _ = try? runProcess("/usr/bin/openbox", ["--exit"], timeout: 10)
        let deadline = Date().addingTimeInterval(10)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// The window of process `pid` among openbox's clients now (its id, as wmctrl prints it).
    func client(of pid: Int32) -> String? {
        let marker = " \(pid) "
        let clients = (try? runProcess("/usr/bin/wmctrl", ["-l", "-p"]).stdout) ?? ""
        return clients.split(separator: "\n").first { $0.contains(marker) }.map { String($0.prefix { $0 != " " }) }
    }

    /// Watches openbox's client list. Managing a window is no fact this process is told of:
    /// xprop -spy on the root window prints each change of the list, and each printed line
    /// wakes the returned run's waits. Kill it when done.
    func watchClients() throws -> ProgramRun {
        try ProgramRun(["-root", "-spy", "_NET_CLIENT_LIST"], executable: "/usr/bin/xprop")
    }

    /// The window of process `pid` once openbox manages it, or nil after the wait.
    func managedWindow(of pid: Int32) throws -> String? {
        let spy = try watchClients()
        defer { spy.kill() }
        return spy.wait { client(of: pid) != nil } ? client(of: pid) : nil
    }
}
