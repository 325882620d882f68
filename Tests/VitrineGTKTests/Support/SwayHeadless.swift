import Foundation
import Testing
import VitrineTestSupport

/// sway on wlroots' headless backend with one output and no input devices: monitors that
/// come on demand (`createOutput`, which GDK reports as `monitor-added`) for `[[displays]]`
/// runs. Under Xvfb, GDK 3 sees one monitor whatever the Xinerama or RandR setup.
///
/// sway refuses to run as root (it could not drop root for good): as root, it runs as
/// `nobody`, owning its runtime folder; root still reaches its sockets. Killed outright on
/// `stop()`: a compositor's clean exit proves nothing here (and sway takes seconds over it).
final class SwayHeadless {
    static let sway = "/usr/bin/sway", swaymsg = "/usr/bin/swaymsg"
    private let process = Process()
    let runtime: String
    /// The Wayland socket's name and the IPC socket's path.
    let socket: String, ipc: String

    /// Starts sway with an empty configuration in `folder`; throws if it does not come up.
    init(in folder: borrowing ConfigFolder, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.sway), "sway is not installed (make deps installs it)",
                     sourceLocation: sourceLocation)
        let config = try folder.write("sway.conf", "")
        runtime = try folder.makeFolder("run")
        let asRoot = getuid() == 0
        if asRoot { chown(runtime, 65534, 65534) }
        chmod(runtime, 0o700)
        process.executableURL = URL(fileURLWithPath: asRoot ? "/usr/bin/setpriv" : Self.sway)
        process.arguments = (asRoot ? ["--reuid=65534", "--regid=65534", "--clear-groups", Self.sway] : []) + ["-c", config]
        process.environment = ProcessInfo.processInfo.environment.merging([
            "XDG_RUNTIME_DIR": runtime, "WLR_BACKENDS": "headless", "WLR_HEADLESS_OUTPUTS": "1",
            "WLR_LIBINPUT_NO_DEVICES": "1", "WLR_RENDERER": "pixman",
        ]) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let runtime = runtime, process = process
        let made = FactWait(watching: [runtime + "/sway-ipc"]) // its runtime folder's new sockets
        try process.run()
        let entries = { (try? FileManager.default.contentsOfDirectory(atPath: runtime)) ?? [] }
        made.wait(timeout: 60) { entries().contains { $0.hasPrefix("sway-ipc.") } || !process.isRunning }
        let socket = entries().first { $0.hasPrefix("wayland-") && !$0.hasSuffix(".lock") }
        let ipc = entries().first { $0.hasPrefix("sway-ipc.") }
        if socket == nil || ipc == nil { kill(process.processIdentifier, SIGKILL) }
        self.socket = try #require(socket, "sway did not start: \(entries())", sourceLocation: sourceLocation)
        self.ipc = runtime + "/" + (try #require(ipc, sourceLocation: sourceLocation))
    }

    /// The environment of a program shown on this compositor through GDK's Wayland backend.
    var programEnvironment: [String: String] {
        ProcessInfo.processInfo.environment.merging([
            "XDG_RUNTIME_DIR": runtime, "WAYLAND_DISPLAY": socket, "GDK_BACKEND": "wayland", "NO_AT_BRIDGE": "1",
        ]) { $1 }
    }

    /// One more headless output (a monitor plugged in).
    func createOutput(sourceLocation: SourceLocation = #_sourceLocation) throws {
        let created = try runProcess(Self.swaymsg, ["-s", ipc, "create_output"], timeout: 20)
        try #require(created.status == 0, "swaymsg create_output: \(created.stdout) \(created.stderr)", sourceLocation: sourceLocation)
    }

    func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
}
