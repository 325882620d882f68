import Foundation
import VitrineTestSupport

/// Debian's WebKitWebDriver on a loopback port, spoken to in plain W3C WebDriver (JSON over
/// HTTP, with curl), as Selenium or WebdriverIO would: no client library in between.
final class WebKitWebDriver {
    let port: Int
    private let process = Process()

    /// Starts the driver with `environment` (its browser inherits it), once it answers `/status`.
    init(environment: [String: String]) throws {
        port = try freePort()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/WebKitWebDriver")
        process.arguments = ["--port=\(port)", "--host=127.0.0.1"]
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(20)
        while (try? request("GET", "/status"))?.status != 200 {
            guard Date() < deadline, process.isRunning else { throw WebDriverFailure("WebKitWebDriver did not answer /status") }
            usleep(100_000)
        }
    }

    deinit {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// One command: its HTTP status and the reply's `value`.
    func request(_ method: String, _ path: String, _ body: [String: Any]? = nil, timeout: TimeInterval = 60) throws -> (status: Int, value: Any?) {
        var arguments = ["-s", "-m", String(Int(timeout)), "-o", "-", "-w", "\n%{http_code}", "-X", method,
                         "http://127.0.0.1:\(port)\(path)"]
        if let body {
            let json = String(decoding: try JSONSerialization.data(withJSONObject: body), as: UTF8.self)
            arguments += ["-H", "Content-Type: application/json", "-d", json]
        }
        let run = try runProcess("/usr/bin/curl", arguments, timeout: timeout + 5)
        guard let split = run.stdout.range(of: "\n", options: .backwards), let status = Int(run.stdout[split.upperBound...]) else {
            throw WebDriverFailure("no reply to \(method) \(path): \(run.stderr)")
        }
        let text = run.stdout[..<split.lowerBound]
        let object = text.isEmpty ? nil : try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        return (status, object?["value"] ?? nil)
    }

    /// A new session; its id, or the driver's error.
    func newSession(capabilities: [String: Any], timeout: TimeInterval = 60) throws -> Result<String, WebDriverFailure> {
        let reply = try request("POST", "/session", ["capabilities": ["alwaysMatch": capabilities]], timeout: timeout)
        if reply.status == 200, let value = reply.value as? [String: Any], let id = value["sessionId"] as? String { return .success(id) }
        return .failure(WebDriverFailure("\(reply.status): \(String(describing: reply.value))"))
    }
}

struct WebDriverFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The W3C key of an element reference.
let webDriverElementKey = "element-6066-11e4-a52e-4f735466cecf"
