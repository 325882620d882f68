import Foundation
import Testing
import Vitrine
import VitrineGTK
import VitrineTestSupport
import VitrineTesting
import VitrineTestingGTK

extension WebKitTests {
    /// Vitrine's error pages: load failures retry by themselves, TLS errors cannot be
    /// bypassed, and a configured certificate is trusted for its host only.
    @Suite @MainActor
    struct ErrorPageTests {
        static let page = "<!doctype html><title>real page</title><p>real</p>"

        func open(_ url: URL, _ refine: (Configurator) -> Configurator = { $0 }) throws -> (WebContainer, MemoryEventLog) {
            try ContainerFixture.kiosk(on: url, refine)
        }

        func errorKind(_ container: WebContainer) async -> String? {
            await container.valueInPage("document.documentElement.dataset.kind")?.stringValue
        }

        @Test func aFailedLoadShowsTheErrorPageAndComesBackWhenTheNetworkDoes() async throws {
            // A port with nothing listening: reserve one, then free it.
            let probe = try LoopbackHTTPServer(pages: ["index.html": Self.page])
            let port = probe.port
            let directory = probe.directory
            probe.stop(removingFiles: false)
            #expect(!LoopbackHTTPServer.isListening(port: port))
            let url = URL(string: "http://127.0.0.1:\(port)/index.html")!

            let (container, events) = try open(url)
            defer { container.close() }
            #expect(await errorKind(container) == "network")
            // The load that failed was the live page's; the one in its place says it is the error page.
            #expect(events.events.contains { if case .load(.failed, url.absoluteString, _, _, .live) = $0 { return true }; return false })
            #expect(await TestLoop.wait {
                events.events.contains { if case .load(.finished, url.absoluteString, _, _, .errorPage) = $0 { return true }; return false }
            })
            #expect(try await container.evaluate("document.title") == "This page cannot be reached")

            // The network comes back: the page retries by itself.
            let server = try LoopbackHTTPServer(pages: [:], port: port, directory: directory)
            defer { server.stop() }
            #expect(await TestLoop.wait(timeout: .seconds(20)) {
                events.events.filter { $0.isLoad(.finished, of: url.absoluteString) }.count >= 2
            })
            // The real page is one of the finished loads: its title, checked at each one.
            func finished() -> Int { events.events.count { $0.isLoad(.finished, of: url.absoluteString) } }
            var title = try? await container.evaluate("document.title")
            while title != "real page" {
                let seen = finished()
                guard await TestLoop.wait(timeout: .seconds(10), until: { finished() > seen }) else { break }
                title = try? await container.evaluate("document.title")
            }
            #expect(title == "real page")
            #expect(events.events.contains { if case .load(.finished, url.absoluteString, _, _, .live) = $0 { return true }; return false })
        }

        @Test func aTLSErrorShowsAnErrorPageWithNoWayAroundItAndATrustedCertificateLoads() async throws {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vitrine-tls-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let certificate = directory.appendingPathComponent("cert.pem").path
            let key = directory.appendingPathComponent("key.pem").path
            let made = try runProcess("/usr/bin/openssl", [
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate, "-days", "2",
                "-subj", "/CN=vitrine-test", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost",
            ])
            try #require(made.status == 0, "openssl: \(made.stderr)")
            let server = try LoopbackHTTPServer(pages: ["index.html": Self.page], tls: (certificate, key))
            defer { server.stop() }

            // Untrusted: the error page, which offers nothing to click through.
            let untrusted = server.url("index.html")
            let (first, firstEvents) = try open(untrusted)
            let kind = await errorKind(first)
            #expect(kind == "tls", "error page \(kind ?? "none"); events: \(firstEvents.events.filter { if case .load = $0 { return true } else { return false } })")
            #expect(firstEvents.events.contains { if case .load(.tlsError, untrusted.absoluteString, _, _, _) = $0 { return true }; return false })
            let controls = try await first.evaluate("document.querySelectorAll('a, button, input, form').length")
            #expect(controls == 0, "no way to bypass")
            // The page is retried, and the retry fails the same way (WebKit may call it a
            // cancelled operation this time): the error page still says the certificate.
            func errorPagesShown() -> Int { firstEvents.events.details(of: .errorPage).count }
            let shown = errorPagesShown()
            #expect(await TestLoop.wait(timeout: .seconds(20)) { errorPagesShown() > shown })
            #expect(firstEvents.events.details(of: .errorPage).allSatisfy { $0.hasPrefix("tls ") },
                    "\(firstEvents.events.details(of: .errorPage)) \(firstEvents.events.details(of: .loadFailure))")
            first.close()

            // The same host, now trusted by configuration: the real page. (The trust is
            // process-wide, so the untrusted attempt above had to come first.)
            let trusted = server.url("index.html")
            let (second, secondEvents) = try open(trusted) { $0.trustCertificate(at: certificate, forHost: "127.0.0.1") }
            defer { second.close() }
            #expect(await TestLoop.wait { secondEvents.events.contains { $0.isLoad(.finished, of: trusted.absoluteString) } })
            #expect(secondEvents.events.contains(.native(action: .tlsException, detail: "127.0.0.1")),
                    "the exception installed while the container was built reaches the log")
            #expect(try await second.evaluate("document.title") == "real page")
        }
    }
}
