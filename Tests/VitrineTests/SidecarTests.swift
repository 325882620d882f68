import Foundation
import Glibc
import Testing
import Vitrine
import VitrineConfigFile
import VitrineTestSupport

/// `[[sidecars]]` as values, no display: the declaration's checks (names, commands kept
/// inside the app folder, environment), the restart policy and its backoff, the state
/// machine, the output's bounds and the readiness probe against real loopback sockets.
@Suite("Sidecars: declarations, lifecycle, output, probe")
struct SidecarTests {
    /// An executable script `name` in `folder`.
    @discardableResult
    private func program(_ folder: borrowing ConfigFolder, _ name: String) throws -> String {
        let path = try folder.write(name, "#!/bin/sh\nexit 0\n")
        chmod(path, 0o755)
        return path
    }

    @Test func aConfigurationDeclaresSidecarsInTheAppFolder() throws {
        let folder = try ConfigFolder()
        try program(folder, "bin/api")
        let configuration = try ConfigFile(text: """
            [[sidecars]]
            name = "api"
            command = "bin/api"
            args = ["--quiet", "--quiet"]
            env = { LOG_LEVEL = "debug" }
            ready = "/health"
            ready-timeout = 5
            restart = "on-failure"
            [[sidecars]]
            name = "shell-2"
            command = "/bin/sh"
            """, path: folder.path + "/vitrine.toml").configuration()
        let (api, shell) = (configuration.sidecars[0], configuration.sidecars[1])
        #expect(configuration.sidecars.count == 2)
        #expect(api.name == "api" && api.command == folder.path + "/bin/api" && api.bundledPath == "bin/api")
        #expect(api.arguments == ["--quiet", "--quiet"], "arguments may repeat")
        #expect(api.environment == [.init(name: "LOG_LEVEL", value: "debug")])
        #expect(api.readiness == .path("/health") && api.readyTimeout == .seconds(5) && api.restart == .onFailure)
        #expect(shell.command == "/bin/sh" && shell.bundledPath == nil && shell.readiness == .started && shell.restart == .never)
    }

    @Test func badDeclarationsAreReportedAtTheirField() throws {
        let folder = try ConfigFolder()
        try program(folder, "bin/api")
        try folder.write("bin/not-executable", "data")
        let outside = try ConfigFolder()
        try program(outside, "evil")
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/bin/link", withDestinationPath: outside.path + "/evil")
        func problems(_ entry: String) -> [String] {
            configurationErrors("[[sidecars]]\n" + entry, named: "v.toml", in: folder)
        }
        #expect(problems("name = \"API\"\ncommand = \"bin/api\"").first?.contains("sidecars[0].name must be 1 to 32 lowercase") == true)
        #expect(problems("name = \"\(String(repeating: "a", count: 33))\"\ncommand = \"bin/api\"").count == 1)
        #expect(problems("name = \"a\"\ncommand = \"../bin/api\"").first?.contains("climbs out of the app folder") == true)
        #expect(problems("name = \"a\"\ncommand = \"bin/../../x\"").first?.contains("climbs out of the app folder") == true)
        #expect(problems("name = \"a\"\ncommand = \"bin/link\"").first?.contains("leads out of the app folder") == true)
        #expect(problems("name = \"a\"\ncommand = \"bin/not-executable\"").first?.contains("not an executable file") == true)
        #expect(problems("name = \"a\"\ncommand = \"bin/missing\"").first?.contains("does not exist in the app folder") == true)
        #expect(problems("name = \"a\"\ncommand = \"/nonexistent/x\"").first?.contains("is not an executable file") == true)
        #expect(problems("name = \"a\"\ncommand = \"bin/api\"\nenv = { VITRINE_SIDECAR_PORT = \"80\" }").first?.contains("set by Vitrine") == true)
        #expect(problems("name = \"a\"\ncommand = \"bin/api\"\nenv = { \"A-B\" = \"x\" }").first?.contains("is not a variable name") == true)
        #expect(problems("name = \"a\"\ncommand = \"bin/api\"\nready = \"health\"").first?.contains("sidecars[0].ready must be") == true)
        #expect(problems("name = \"a\"\ncommand = \"bin/api\"\nready = \"/a b\"").count == 1)
        #expect(problems("name = \"a\"\ncommand = \"bin/api\"\nrestart = \"sometimes\"").first?.contains("restart must be one of never, on-failure, always") == true)
        #expect(problems("name = \"a\"\ncommand = \"bin/api\"\nuser = \"root\"").first?.contains("unknown key 'sidecars[0].user'") == true)
        #expect(problems("name = \"a\"").first?.contains("command") == true)
        let twice = configurationErrors("[[sidecars]]\nname = \"a\"\ncommand = \"bin/api\"\n[[sidecars]]\nname = \"a\"\ncommand = \"/bin/sh\"",
                                        named: "v.toml", in: folder)
        #expect(twice.count == 1 && twice[0].contains("names another sidecar already"))
        #expect(problems("name = \"a\"\ncommand = \"bin/api\"").isEmpty, "the sound entry passes")
    }

    @Test func aPushedConfigurationCannotAddASidecar() throws {
        let folder = try ConfigFolder()
        try program(folder, "bin/api")
        let path = folder.path + "/vitrine.toml"
        let pushed = "[[sidecars]]\nname = \"a\"\ncommand = \"/bin/sh\"\nargs = [\"-c\", \"id\"]\n"
        #expect(throws: ConfigFileError.self) { try ConfigFile.checkPush(pushed, replacing: "title = \"Lobby\"\n", at: path) }
        let running = "[[sidecars]]\nname = \"a\"\ncommand = \"bin/api\"\n"
        #expect(throws: ConfigFileError.self) {
            try ConfigFile.checkPush(running.replacingOccurrences(of: "bin/api\"", with: "bin/api\"\nargs = [\"x\"]"), replacing: running, at: path)
        }
        try ConfigFile.checkPush(running, replacing: running, at: path)
    }

    @Test func aSupportBundlesCopyOfTheConfigurationHidesTheEnvironment() throws {
        let redacted = try #require(ConfigFile.redacted("[[sidecars]]\nname = \"api\"\ncommand = \"/bin/sh\"\nenv = { API_KEY = \"sk-planted-4711\" }\n"))
        #expect(redacted.contains("/bin/sh"), "the rest stays: \(redacted)")
        #expect(!redacted.contains("sk-planted-4711"), "\(redacted)")
    }

    @Test func theBackoffDoublesToItsCap() {
        let backoff = SidecarBackoff(first: .milliseconds(500), cap: .seconds(4))
        #expect((1...6).map(backoff.delay) == [.milliseconds(500), .seconds(1), .seconds(2), .seconds(4), .seconds(4), .seconds(4)])
    }

    private func declaration(_ restart: String) throws -> SidecarDeclaration {
        try SidecarDeclaration.declared(name: "api", command: "/bin/sh", restart: restart, appFolder: "/")
    }

    @Test func onFailureRestartsFailuresUntilItsBudgetIsSpent() throws {
        var life = SidecarLifecycle(try declaration("on-failure"), backoff: SidecarBackoff(budget: 2, stable: .seconds(60)))
        life.started(at: .zero)
        let (first, second) = (life.becameReady(), life.becameReady())
        #expect(first && !second, "ready is news once")
        #expect(life.exited(.signal(9), at: .seconds(1)) == .restart(after: .milliseconds(500)) && life.state == .restarting)
        life.started(at: .seconds(2))
        #expect(life.exited(.code(1), at: .seconds(3)) == .restart(after: .seconds(1)))
        life.started(at: .seconds(4))
        #expect(life.exited(.code(1), at: .seconds(5)) == .none && life.state == .failed, "the budget is spent")
        var stable = SidecarLifecycle(try declaration("on-failure"), backoff: SidecarBackoff(budget: 1, stable: .seconds(60)))
        stable.started(at: .zero)
        #expect(stable.exited(.code(1), at: .seconds(1)) == .restart(after: .milliseconds(500)))
        stable.started(at: .seconds(2))
        #expect(stable.exited(.code(1), at: .seconds(100)) == .restart(after: .milliseconds(500)), "a stable run refills the budget")
        stable.started(at: .seconds(101))
        #expect(stable.exited(.code(0), at: .seconds(102)) == .none && stable.state == .exited, "a clean end is not a failure")
    }

    @Test func failuresAndRestartsSayWhy() throws {
        #expect(SidecarRecord.restarting("api", after: .milliseconds(500)).detail == "in 0.5 s")
        let hung = try SidecarDeclaration.declared(name: "api", command: "/bin/sh", ready: "/health", readyTimeout: .seconds(30), appFolder: "/")
        #expect(SidecarRecord.notReady(hung).detail == #"not ready within 30 s (ready = "/health")"#)
        var never = SidecarLifecycle(try declaration("never"))
        never.started(at: .zero)
        _ = never.exited(.code(1), at: .seconds(1))
        #expect(SidecarRecord.endedForGood(never).detail == #"it ended with a failure (restart = "never")"#)
        var spent = SidecarLifecycle(try declaration("always"), backoff: SidecarBackoff(budget: 1))
        spent.started(at: .zero)
        _ = spent.exited(.code(1), at: .seconds(1))
        spent.started(at: .seconds(2))
        _ = spent.exited(.code(1), at: .seconds(3))
        #expect(spent.state == .failed && SidecarRecord.endedForGood(spent).detail == "it ended 2 times in a row; not started again")
    }

    @Test func eachPolicyDecidesAfterAnEnd() throws {
        var never = SidecarLifecycle(try declaration("never"))
        never.started(at: .zero)
        #expect(never.exited(.code(2), at: .seconds(1)) == .none && never.state == .failed)
        var always = SidecarLifecycle(try declaration("always"))
        always.started(at: .zero)
        #expect(always.exited(.code(0), at: .seconds(1)) == .restart(after: .milliseconds(500)))
        var stopped = SidecarLifecycle(try declaration("always"))
        stopped.started(at: .zero)
        stopped.stopping()
        #expect(stopped.exited(.signal(15), at: .seconds(1)) == .none && stopped.state == .stopped, "the app's own stop is never restarted")
        var hung = SidecarLifecycle(try declaration("always"))
        hung.started(at: .zero)
        #expect(hung.readyTimedOut() == .kill && hung.state == .failed)
        #expect(hung.exited(.signal(9), at: .seconds(31)) == .none && hung.state == .failed, "a hung sidecar killed stays failed")
        let lateReady = hung.becameReady()
        #expect(!lateReady, "a failed sidecar is never ready")
    }

    @Test func outputIsCutIntoBoundedLines() {
        var output = SidecarOutput(limits: .init(lineLimit: 8, burst: 4, perSecond: 1, total: 6))
        func texts(_ lines: [SidecarOutput.Line]) -> [String] { lines.map(\.text) }
        #expect(output.append(Array("one\r\ntw".utf8), on: .stdout, at: .zero) == [.init(.stdout, "one")])
        #expect(output.append(Array("err".utf8), on: .stderr, at: .zero) == [], "each stream has its own line")
        #expect(texts(output.append(Array("o\n0123456789abc\nx".utf8), on: .stdout, at: .zero)) == ["two", "01234567…"],
                "a long line is cut, its rest dropped")
        #expect(output.append(Array("or\n".utf8), on: .stderr, at: .zero) == [.init(.stderr, "error")], "the streams share the burst")
        #expect(texts(output.append(Array("\nlost\n".utf8), on: .stdout, at: .zero)) == [], "over the burst")
        #expect(output.dropped == 2)
        #expect(output.append(Array("later\n".utf8), on: .stderr, at: .seconds(1))
            == [.init(.stderr, "(2 lines of output dropped: too many)"), .init(.stderr, "later")])
        #expect(texts(output.append(Array("a\nb\nc\n".utf8), on: .stdout, at: .seconds(10))) == ["a"], "the total cap")
        #expect(output.finish(at: .seconds(20)) == [])
        var flood = SidecarOutput()
        let kept = flood.append([UInt8](repeating: UInt8(ascii: "x"), count: 5_000_000), on: .stdout, at: .zero)
        #expect(kept.count == 1 && kept[0].text.utf8.count <= 1003, "a line without end holds one line's bytes")
        #expect(flood.finish(at: .zero) == [], "its rest is dropped")
        var last = SidecarOutput()
        _ = last.append(Array("no line break".utf8), on: .stderr, at: .zero)
        #expect(last.finish(at: .zero) == [.init(.stderr, "no line break")])
    }

    @Test func outputLinesAreRedactedWithTheirEvent() {
        let line = ContainerEvent.sidecarOutput(name: "api", stream: "stdout", line: "GET https://u:hunter22@db.test/?token=abc").redacted
        #expect(line == .sidecarOutput(name: "api", stream: "stdout", line: "GET https://u:<redacted>@db.test/?token=<redacted>"))
    }

    @Test func theProbeSeesAPortAndAnHTTPPath() throws {
        let port = try #require(SidecarProbe.freePort())
        #expect(!SidecarProbe.isReady(.port, port: port), "nothing listens yet")
        let server = try LoopbackHTTPServer(port: port, statusLines: ["HTTP/1.0 503 Starting", "HTTP/1.1 204 No Content"])
        #expect(SidecarProbe.isReady(.port, port: port))
        #expect(!SidecarProbe.isReady(.path("/health"), port: port), "a 503 is not ready")
        #expect(SidecarProbe.isReady(.path("/health"), port: port), "a 2xx is")
        #expect(server.requests.contains { $0.hasPrefix("GET /health HTTP/1.0") })
        #expect(!SidecarProbe.isReady(.port, port: 0) && SidecarProbe.isReady(.started, port: 1))
    }
}

/// A server on 127.0.0.1:`port` that answers each connection that sends a request with the
/// next of `statusLines` (a port check's bare connection takes none), on a thread of its own.
private final class LoopbackHTTPServer: @unchecked Sendable {
    private final class Received: @unchecked Sendable {
        let lock = NSLock()
        var requests: [String] = []
    }

    private let socket: Int32
    private let received = Received()
    var requests: [String] { received.lock.withLock { received.requests } }

    init(port: Int, statusLines: [String]) throws {
        let listener = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        socket = listener
        var yes: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(listener, 8) == 0 else { throw POSIXError(.EADDRINUSE) }
        let received = received
        Thread.detachNewThread {
            var answers = statusLines[...]
            while true {
                let client = accept(listener, nil, nil)
                guard client >= 0 else { return }
                var buffer = [UInt8](repeating: 0, count: 1024)
                let count = recv(client, &buffer, buffer.count, 0)
                if count > 0, let status = answers.popFirst() {
                    received.lock.withLock { received.requests.append(String(decoding: buffer[..<count], as: UTF8.self)) }
                    let reply = status + "\r\nContent-Length: 0\r\n\r\n"
                    _ = reply.withCString { send(client, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
                }
                close(client)
            }
        }
    }

    deinit { shutdown(socket, Int32(SHUT_RDWR)); close(socket) }
}
