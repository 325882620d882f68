import CWebKitGTK
import Foundation
import Testing
import Vitrine
import VitrineGTK
import VitrineTestSupport
import VitrineTestingGTK

extension WebKitTests {
    /// A kiosk never gives up on its page: a failed load shows the error page and is tried
    /// again on a backoff (logged attempt by attempt), at once when GLib's network monitor
    /// reports the network back, and an app server answering 503 counts as not there yet.
    @Suite @MainActor
    struct StartPageRetryTests {
        static let page = "<!doctype html><title>real page</title><p>real</p>"

        func kiosk(_ url: URL) throws -> ContainerFixture {
            try ContainerFixture(ConfiguratorFactory.make(for: .kiosk).startURL(url).fullscreen(false))
        }

        func native(_ action: ContainerEvent.NativeAction, _ prefix: String = "") -> @Sendable (ContainerEvent) -> Bool {
            { if case let .native(name, detail) = $0 { return name == action && detail.hasPrefix(prefix) }; return false }
        }

        @Test func theAppsServerAnswering503ShowsTheErrorPageUntilItAnswers200() async throws {
            let server = try LoopbackHTTPServer(pages: ["index.html": Self.page, "MAINTENANCE": ""])
            defer { server.stop() }
            let url = server.url("maintenance/index.html")
            let fixture = try kiosk(url)
            defer { fixture.close() }
            fixture.container.start()
            try await fixture.next(where: native(.retry, "1 \(url.absoluteString) in "))
            #expect(fixture.log.events.contains { if case let .native(.retry, detail) = $0 { return detail.hasSuffix("(http-503)") }; return false })
            try await fixture.next(where: native(.errorPage, "network \(url.absoluteString)"))

            // The backend is up: the next attempt shows the page.
            try FileManager.default.removeItem(at: server.directory.appendingPathComponent("MAINTENANCE"))
            try await fixture.next(where: native(.recovered, url.absoluteString), timeout: .seconds(30))
            #expect(try await fixture.container.evaluate("document.title") == "real page")
            #expect(server.requestedPaths.filter { $0 == "/maintenance/index.html" }.count >= 2)
        }

        @Test func theNetworkComingBackReloadsAtOnceBeforeTheBackoffEnds() async throws {
            let port = try freePort()
            let url = URL(string: "http://127.0.0.1:\(port)/index.html")!
            let fixture = try kiosk(url)
            defer { fixture.close() }
            fixture.container.start()
            // Three failures: the next attempt waits about 4 s.
            try await fixture.next(where: native(.retry, "1 \(url.absoluteString) in "))
            try await fixture.next(where: native(.retryLoad, "1 \(url.absoluteString) (backoff)"))
            try await fixture.next(where: native(.retry, "2 \(url.absoluteString) in "))
            try await fixture.next(where: native(.retry, "3 \(url.absoluteString) in "))

            emitNetworkChanged(available: true)
            let attempt = try await fixture.next(where: native(.retryLoad), timeout: .seconds(2))
            #expect(attempt == .native(action: .retryLoad, detail: "3 \(url.absoluteString) (network)"))
        }

        /// Each kind of failure is retried, and named in the log: a host that does not resolve
        /// (`.invalid` never does), a port nothing listens on, a server that does not speak TLS.
        @Test func aDNSFailureARefusedConnectionAndAFailedTLSHandshakeAreEachRetriedByName() async throws {
            let notTLS = try RawLoopbackServer(.plainTextThenHangUp)
            defer { notTLS.stop() }
            let cases = [
                (URL(string: "http://vitrine-test.invalid/index.html")!, "host-not-found"),
                (URL(string: "http://127.0.0.1:\(try freePort())/index.html")!, "connection-refused"),
                (URL(string: "https://127.0.0.1:\(notTLS.port)/index.html")!, "tls"),
            ]
            for (url, kind) in cases {
                let fixture = try kiosk(url)
                defer { fixture.close() }
                fixture.container.start()
                let retry = try await fixture.next(where: native(.retry, "1 \(url.absoluteString) in "))
                guard case let .native(_, detail) = retry else { continue }
                #expect(detail.hasSuffix("(\(kind))"), "\(url): \(detail)")
                try await fixture.next(where: native(.errorPage, "network \(url.absoluteString)"))
            }
        }

        /// A server that accepts the connection and never answers: after `load-timeout` the
        /// error page, and the next attempt, which is timed again.
        @Test func aServerThatNeverAnswersIsGivenUpOnAfterTheLoadTimeoutAndTriedAgain() async throws {
            let silent = try RawLoopbackServer(.silent)
            defer { silent.stop() }
            let url = URL(string: "http://127.0.0.1:\(silent.port)/index.html")!
            var options = KioskOptions()
            options.loadTimeout = .seconds(1)
            let fixture = try ContainerFixture(ConfiguratorFactory.make(for: .kiosk).startURL(url).fullscreen(false).kiosk(options))
            defer { fixture.close() }
            fixture.container.start()
            let retry = try await fixture.next(where: native(.retry, "1 \(url.absoluteString) in "), timeout: .seconds(10))
            guard case let .native(_, detail) = retry else { return }
            #expect(detail.hasSuffix("(timed-out)"), "\(detail)")
            try await fixture.next(where: native(.errorPage, "network \(url.absoluteString)"))
            try await fixture.next(where: native(.retry, "2 \(url.absoluteString) in "), timeout: .seconds(15))
        }

        /// Emits the real `network-changed` signal on GLib's real default network monitor.
        func emitNetworkChanged(available: Bool) {
            let monitor = g_network_monitor_get_default()!
            let signal = g_signal_lookup("network-changed", g_network_monitor_get_type())
            var values = [GValue](repeating: GValue(), count: 2)
            g_value_init(&values[0], GType(20 << 2)) // G_TYPE_OBJECT
            g_value_set_object(&values[0], UnsafeMutableRawPointer(monitor))
            g_value_init(&values[1], GType(5 << 2)) // G_TYPE_BOOLEAN
            g_value_set_boolean(&values[1], available ? 1 : 0)
            g_signal_emitv(&values, signal, 0, nil)
            g_value_unset(&values[0])
            g_value_unset(&values[1])
        }
    }
}

/// A loopback server that is not an HTTP server: a few lines of Python accepting
/// connections and doing `what` with each.
final class RawLoopbackServer {
    enum Behaviour {
        /// Answers plain text and hangs up: a TLS client's handshake fails.
        case plainTextThenHangUp
        /// Holds every connection and never answers (a hung backend).
        case silent

        var loopBody: String {
            switch self {
            case .plainTextThenHangUp: return #"connection.sendall(b"HTTP/1.0 200 OK\r\n\r\nnot TLS"); connection.close()"#
            case .silent: return "held.append(connection)"
            }
        }
    }

    let port: Int
    private let process = Process()

    init(_ behaviour: Behaviour) throws {
        port = try freePort()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", """
            import socket
            server = socket.create_server(("127.0.0.1", \(port)))
            print("LISTENING", flush=True)
            held = []
            while True:
                connection, _ = server.accept()
                \(behaviour.loopBody)
            """]
        let said = Pipe()
        process.standardOutput = said
        process.standardError = FileHandle.nullDevice
        try process.run()
        _ = firstLine(of: said) // "LISTENING", once it accepts connections
    }

    func stop() { kill(process.processIdentifier, SIGKILL) }
}

/// A loopback port nothing listens on: bound, then freed.
func freePort() throws -> Int {
    let probe = try LoopbackHTTPServer(pages: [:])
    let port = probe.port
    probe.stop() // returns once the server has ended, its port closed with it
    return port
}
