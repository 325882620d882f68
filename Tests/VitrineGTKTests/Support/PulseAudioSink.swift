import CWebKitGTK
import Foundation
@testable import VitrineGTK
import VitrineTestSupport

/// A private PulseAudio server with one null sink, on a socket in a 0700 folder of its
/// own (never the machine's sound), and a recorder of what reaches that sink's monitor.
///
/// Nothing here uses Foundation's `Process`, whose exit is never seen once GLib watches
/// children (the test would hang in `waitUntilExit` on the main actor): the server starts
/// daemonized through `ToolRun` (g_spawn_sync returns once its socket listens, the daemon's
/// parent waits for that) and is stopped by the pid it writes; the recorder is a
/// `ChildProcess` (GSubprocess, reaped by GLib's loop).
///
/// The web processes find the server through `PULSE_SERVER`, which the test sets in this
/// process's environment before its view is made (WebKit's sandbox binds that socket into
/// the web process's namespace); `stop()` puts the variable back.
@MainActor
final class PulseAudioSink {
    let folder: String
    var socket: String { folder + "/native" }
    private var recorder: ChildProcess?
    private let previousServer: String?
    private var stopped = false

    init() throws {
        let folder = "/tmp/vitrine-pulse-\(UUID().uuidString.prefix(8))"
        self.folder = folder
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        // Idle (no client) for a minute, it ends by itself: a crashed test leaves no server.
        // Without DISPLAY or a session bus: given the test's X display, pulseaudio reaches
        // D-Bus through it and an AT-SPI bus starts in this folder, whose address (an X
        // property) WebKit then binds into later sandboxes, after the folder is gone.
        let started = try ToolRun.run(["/usr/bin/env", "-u", "DISPLAY", "-u", "WAYLAND_DISPLAY", "-u", "DBUS_SESSION_BUS_ADDRESS",
                                       "/usr/bin/pulseaudio", "-n", "--daemonize=yes", "--exit-idle-time=60", "--use-pid-file=yes",
                                       "--disable-shm=yes", "-L", "module-native-protocol-unix socket=\(folder)/native auth-anonymous=1",
                                       "-L", "module-null-sink sink_name=vitrine_test"],
                                      discardsErrors: true, environment: ["HOME": folder, "XDG_RUNTIME_DIR": folder])
        guard started.status == 0, FileManager.default.fileExists(atPath: folder + "/native") else {
            throw LoopbackHTTPServer.ServerError(output: "pulseaudio did not start (status \(started.status))")
        }
        previousServer = ProcessInfo.processInfo.environment["PULSE_SERVER"]
        setenv("PULSE_SERVER", "unix:" + socket, 1)
    }

    /// Starts recording the sink's monitor (16-bit mono) into `recording.raw`.
    func startRecording() throws {
        recorder = try ChildProcess(["/usr/bin/parec", "--server=unix:" + socket, "--device=vitrine_test.monitor", "--raw",
                                     "--format=s16le", "--rate=8000", "--channels=1", folder + "/recording.raw"],
                                    endsWithParent: true, discardsOutput: true) { _ in }
    }

    /// The recording's RMS once it is above `level`, waiting (at most `timeout` seconds) for
    /// parec to write the samples it still buffers; the last RMS read when it never is.
    func recordedRMS(reaching level: Double, timeout: TimeInterval = 10) -> Double {
        var rms = recordedRMS()
        FactWait(watching: [folder]).wait(timeout: timeout) {
            rms = recordedRMS()
            return rms > level
        }
        return rms
    }

    /// The root mean square of the recording so far, from 0 (silence) to 1 (full scale).
    func recordedRMS() -> Double {
        let data = (try? Data(contentsOf: URL(fileURLWithPath: folder + "/recording.raw"))) ?? Data()
        let samples = data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        guard !samples.isEmpty else { return 0 }
        let sum = samples.reduce(0.0) { $0 + Double($1) * Double($1) }
        return (sum / Double(samples.count)).squareRoot() / 32768
    }

    /// Stops the recorder and the server, removes the folder and restores `PULSE_SERVER`.
    func stop() {
        guard !stopped else { return }
        stopped = true
        if let previousServer { setenv("PULSE_SERVER", previousServer, 1) } else { unsetenv("PULSE_SERVER") }
        recorder?.terminate()
        if let pid = (try? String(contentsOfFile: folder + "/pulse/pid", encoding: .utf8))
            .flatMap({ pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }), pid > 1 {
            kill(pid, SIGTERM)
        }
        try? FileManager.default.removeItem(atPath: folder)
    }

    isolated deinit {
        stop()
    }
}

/// Media files made for a test with GStreamer's test sources (gst-launch-1.0, run through
/// `ToolRun`: g_spawn_sync, not Foundation's `Process`).
enum TestMedia {
    /// A 440 Hz tone, Opus in Ogg, `seconds` long.
    static func tone(into folder: URL, name: String = "tone.ogg", seconds: Int = 4) throws {
        try launch(["audiotestsrc", "num-buffers=\(seconds * 100)", "samplesperbuffer=480", "freq=440", "volume=0.5", "!",
                    "audio/x-raw,rate=48000", "!", "audioconvert", "!", "opusenc", "!", "oggmux", "!",
                    "filesink", "location=" + folder.appendingPathComponent(name).path])
    }

    /// A small VP8 video with an Opus tone, in WebM (VP8: quick to encode on a busy machine).
    static func video(into folder: URL, name: String = "clip.webm", seconds: Int = 3) throws {
        try launch(["videotestsrc", "num-buffers=\(seconds * 10)", "!", "video/x-raw,width=160,height=120,framerate=10/1", "!",
                    "vp8enc", "deadline=1", "!", "webmmux", "name=mux", "!", "filesink", "location=" + folder.appendingPathComponent(name).path,
                    "audiotestsrc", "num-buffers=\(seconds * 100)", "samplesperbuffer=480", "freq=440", "volume=0.5", "!",
                    "audio/x-raw,rate=48000", "!", "audioconvert", "!", "opusenc", "!", "mux."])
    }

    private static func launch(_ pipeline: [String]) throws {
        // Its errors reach the test's standard error; the status says whether it made the file.
        let result = try ToolRun.run(["/usr/bin/gst-launch-1.0", "-q"] + pipeline)
        guard result.status == 0 else { throw LoopbackHTTPServer.ServerError(output: "gst-launch-1.0 failed: status \(result.status)") }
    }
}
