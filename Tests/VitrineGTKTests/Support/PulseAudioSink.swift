import Foundation
import VitrineTestSupport

/// A private PulseAudio server with one null sink, on a socket in a 0700 folder of its
/// own (never the machine's sound), and a recorder of what reaches that sink's monitor.
///
/// The web processes find it through `PULSE_SERVER`, which the test sets in this process's
/// environment before its view is made (WebKit's sandbox binds that socket into the web
/// process's namespace); `restoreEnvironment()` puts the variable back.
final class PulseAudioSink {
    let folder: String
    var socket: String { folder + "/native" }
    private let server: Process
    private var recorder: Process?
    private let previousServer: String?

    init() throws {
        let folder = "/tmp/vitrine-pulse-\(UUID().uuidString.prefix(8))"
        self.folder = folder
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let server = Process()
        self.server = server
        server.executableURL = URL(fileURLWithPath: "/usr/bin/pulseaudio")
        server.arguments = ["-n", "--daemonize=no", "--exit-idle-time=-1", "--use-pid-file=no", "--disable-shm=yes",
                            "-L", "module-native-protocol-unix socket=\(folder)/native auth-anonymous=1",
                            "-L", "module-null-sink sink_name=vitrine_test"]
        server.environment = ["HOME": folder, "XDG_RUNTIME_DIR": folder, "PATH": "/usr/bin:/bin"]
        server.standardOutput = FileHandle.nullDevice
        server.standardError = FileHandle(forWritingAtPath: "/dev/null")
        let listening = FactWait(watching: [folder])
        try server.run()
        listening.wait(timeout: 20) { FileManager.default.fileExists(atPath: folder + "/native") || !server.isRunning }
        guard server.isRunning, FileManager.default.fileExists(atPath: folder + "/native") else {
            throw LoopbackHTTPServer.ServerError(output: "pulseaudio did not start")
        }
        previousServer = ProcessInfo.processInfo.environment["PULSE_SERVER"]
        setenv("PULSE_SERVER", "unix:" + folder + "/native", 1)
    }

    /// Starts recording the sink's monitor (16-bit mono) into `recording.raw`.
    func startRecording() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/parec")
        process.arguments = ["--server=unix:" + socket, "--device=vitrine_test.monitor", "--raw", "--format=s16le", "--rate=8000",
                             "--channels=1", folder + "/recording.raw"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        recorder = process
    }

    /// The root mean square of the recording so far, from 0 (silence) to 1 (full scale).
    func recordedRMS() -> Double {
        let data = (try? Data(contentsOf: URL(fileURLWithPath: folder + "/recording.raw"))) ?? Data()
        let samples = data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        guard !samples.isEmpty else { return 0 }
        let sum = samples.reduce(0.0) { $0 + Double($1) * Double($1) }
        return (sum / Double(samples.count)).squareRoot() / 32768
    }

    func restoreEnvironment() {
        if let previousServer { setenv("PULSE_SERVER", previousServer, 1) } else { unsetenv("PULSE_SERVER") }
    }

    deinit {
        restoreEnvironment()
        for process in [recorder, server].compactMap({ $0 }) where process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(atPath: folder)
    }
}

/// Media files made for a test with GStreamer's test sources (gst-launch-1.0).
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
        let result = try runProcess("/usr/bin/gst-launch-1.0", ["-q"] + pipeline, timeout: 120)
        guard result.status == 0 else { throw LoopbackHTTPServer.ServerError(output: "gst-launch-1.0: \(result.stderr)") }
    }
}
