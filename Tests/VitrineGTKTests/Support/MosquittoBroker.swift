import Foundation
import VitrineTestSupport

/// Debian's Mosquitto broker on loopback, with TLS (a CA and a server certificate made
/// here with openssl, naming 127.0.0.1) and a password file (mosquitto_passwd), driven
/// with mosquitto_sub / mosquitto_pub.
///
/// Run as root, mosquitto drops to the user `mosquitto`: its folder is 0755 and its files
/// 0644 (a test's throwaway key), or it could not read them.
final class MosquittoBroker {
    let folder: String
    let port: Int
    let username = "kiosk"
    let password = "s3cret-\(UUID().uuidString.prefix(8))"
    private var process: Process?

    var caFile: String { folder + "/ca.pem" }
    var logFile: String { folder + "/broker.log" }
    var log: String { (try? String(contentsOfFile: logFile, encoding: .utf8)) ?? "" }

    init() throws {
        folder = "/tmp/vitrine-mqtt-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        port = try Self.freePort()
        try makeCertificates()
        let passwd = try runProcess("/usr/bin/mosquitto_passwd", ["-c", "-b", folder + "/passwd", username, password])
        guard passwd.status == 0 else { throw LoopbackHTTPServer.ServerError(output: "mosquitto_passwd: \(passwd.stderr)") }
        try """
            listener \(port) 127.0.0.1
            allow_anonymous false
            password_file \(folder)/passwd
            cafile \(folder)/ca.pem
            certfile \(folder)/server.pem
            keyfile \(folder)/server.key
            persistence false
            log_dest stderr
            log_type error
            log_type warning
            log_type notice
            log_type information
            """.write(toFile: folder + "/mosquitto.conf", atomically: true, encoding: .utf8)
        for file in ["passwd", "mosquitto.conf", "server.key", "server.pem", "ca.pem"] {
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: folder + "/" + file)
        }
        try start()
    }

    private func makeCertificates() throws {
        let commands: [[String]] = [
            ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=Vitrine test MQTT CA",
             "-keyout", folder + "/ca.key", "-out", folder + "/ca.pem"],
            ["req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=127.0.0.1", "-keyout", folder + "/server.key", "-out", folder + "/server.csr"],
        ]
        for arguments in commands {
            let result = try runProcess("/usr/bin/openssl", arguments)
            guard result.status == 0 else { throw LoopbackHTTPServer.ServerError(output: "openssl: \(result.stderr)") }
        }
        try "subjectAltName=IP:127.0.0.1,DNS:localhost\n".write(toFile: folder + "/san.ext", atomically: true, encoding: .utf8)
        let sign = try runProcess("/usr/bin/openssl", [
            "x509", "-req", "-in", folder + "/server.csr", "-CA", folder + "/ca.pem", "-CAkey", folder + "/ca.key",
            "-CAcreateserial", "-days", "2", "-extfile", folder + "/san.ext", "-out", folder + "/server.pem"])
        guard sign.status == 0 else { throw LoopbackHTTPServer.ServerError(output: "openssl: \(sign.stderr)") }
    }

    /// Starts (or starts again) the broker on the same port; returns once it listens.
    func start() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/mosquitto")
        process.arguments = ["-c", folder + "/mosquitto.conf"]
        process.standardOutput = FileHandle.nullDevice
        // Its log (to standard error) in a file the test owns: what it refused and why.
        if !FileManager.default.fileExists(atPath: logFile) { _ = FileManager.default.createFile(atPath: logFile, contents: nil) }
        let log = FileHandle(forWritingAtPath: logFile)
        log?.seekToEndOfFile()
        process.standardError = log
        // Its log says when it runs ("mosquitto version … running", after it listens).
        let logged = FactWait(watching: [logFile])
        try process.run()
        self.process = process
        logged.wait(timeout: 10) { LoopbackHTTPServer.isListening(port: port) || !process.isRunning }
        guard LoopbackHTTPServer.isListening(port: port) else { throw LoopbackHTTPServer.ServerError(output: "mosquitto did not listen on \(port)") }
    }

    /// Stops the broker; returns once the port is closed.
    func stop() {
        guard let process else { return }
        kill(process.processIdentifier, SIGKILL)
        // Its port closes with it. (Not `waitUntilExit`: it spins a run loop a main-actor
        // test would block.)
        waitForExit(of: process, timeout: 10)
        self.process = nil
    }

    func remove() {
        stop()
        try? FileManager.default.removeItem(atPath: folder)
    }

    var clientArguments: [String] {
        ["-h", "127.0.0.1", "-p", String(port), "--cafile", caFile, "-u", username, "-P", password, "-q", "1"]
    }

    /// Publishes `message` (from a file, so any size) on `topic`.
    func publish(_ topic: String, _ message: String, retained: Bool = false) throws {
        let file = folder + "/message-\(UUID().uuidString)"
        try message.write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let result = try runProcess("/usr/bin/mosquitto_pub", clientArguments + ["-t", topic, "-f", file] + (retained ? ["-r"] : []), timeout: 20)
        guard result.status == 0 else { throw LoopbackHTTPServer.ServerError(output: "mosquitto_pub: \(result.stderr)") }
    }

    /// A subscriber that writes `TOPIC PAYLOAD` lines to a file, until stopped.
    func subscribe(_ topics: [String], excluding excluded: [String] = [], to file: String, raw: Bool = false, count: Int? = nil) throws -> Process {
        _ = FileManager.default.createFile(atPath: file, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/mosquitto_sub")
        process.arguments = clientArguments + topics.flatMap { ["-t", $0] } + excluded.flatMap { ["-T", $0] }
            + (raw ? ["-N"] : ["-v"]) + (count.map { ["-C", String($0)] } ?? [])
        process.standardOutput = FileHandle(forWritingAtPath: file)
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// The payloads published on `topic`, in order, from a `subscribe` file's `TOPIC PAYLOAD` lines.
    static func payloads(on topic: String, in file: String) -> [String] {
        ((try? String(contentsOfFile: file, encoding: .utf8)) ?? "").split(separator: "\n")
            .filter { $0.hasPrefix(topic + " ") }.map { String($0.dropFirst(topic.count + 1)) }
    }

    /// A payload read as a JSON object; empty when it is not one.
    static func jsonObject(_ text: String) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]) ?? [:]
    }

    /// A folder for a kiosk's configuration, with the broker password in `mqtt.pass` (0600).
    func kioskFolder() throws -> String {
        let kiosk = folder + "/kiosk"
        try FileManager.default.createDirectory(atPath: kiosk, withIntermediateDirectories: true)
        try password.write(toFile: kiosk + "/mqtt.pass", atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: kiosk + "/mqtt.pass")
        return kiosk
    }

    /// `kioskFolder()` with an HTTP password in `cred.pass` (0600) as well.
    func kioskFolder(credential: String) throws -> String {
        let kiosk = try kioskFolder()
        try credential.write(toFile: kiosk + "/cred.pass", atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: kiosk + "/cred.pass")
        return kiosk
    }

    /// A `[network]` with a proxy whose URL holds `proxyPassword` (loopback left out of it)
    /// and `[[network.credentials]]` naming `cred.pass` (see `kioskFolder(credential:)`).
    static func networkSection(proxyPassword: String) -> String {
        """
        [network]
        proxy = "http://proxyuser:\(proxyPassword)@127.0.0.1:9"
        no-proxy = ["127.0.0.1"]

        [[network.credentials]]
        origin = "https://intranet.example"
        username = "kiosk"
        password-file = "cred.pass"

        """
    }

    /// A kiosk's `[remote.mqtt]` for this broker (its password in `mqtt.pass` beside it).
    func remoteSection(deviceID: String, caFile: String) -> String {
        """
        [remote.mqtt]
        broker = "mqtts://127.0.0.1:\(port)"
        device-id = "\(deviceID)"
        username = "\(username)"
        password-file = "mqtt.pass"
        ca-certificates = ["\(caFile)"]

        """
    }

    /// The built `vitrine` on `config`, alone (no session bus instance); kill it when done.
    static func launchKiosk(config: String) throws -> ProgramRun {
        try ProgramRun(["--new-instance", "--no-fullscreen", "--config", config])
    }

    static func freePort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0 }
        }
        guard bound else { throw LoopbackHTTPServer.ServerError(output: "no free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
