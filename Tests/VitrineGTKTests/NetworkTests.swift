import Foundation
import Testing
import Vitrine
import VitrineGTK
import VitrineTestSupport
import VitrineTestingGTK

extension WebKitTests {
    /// `[network]` against real servers on loopback: Debian's tinyproxy, TLS servers with
    /// certificates from a CA made here (one also asking for a client certificate), and a
    /// server asking for HTTP Basic credentials. Each wrong or missing setting fails closed.
    @Suite @MainActor
    struct NetworkTests {
        static let page = "<!doctype html><title>real page</title><p>real</p>"

        func open(_ url: URL, _ refine: (Configurator) -> Configurator = { $0 }) throws -> (WebContainer, MemoryEventLog) {
            try ContainerFixture.kiosk(on: url, refine)
        }

        func finished(_ url: URL, _ log: MemoryEventLog) async -> Bool {
            await TestLoop.wait(timeout: .seconds(20)) { log.events.contains { $0.isLoad(.finished, of: url.absoluteString) } }
        }

        func title(_ container: WebContainer) async -> String? {
            if case .string(let title)? = try? await container.evaluate("document.title") { return title }
            return nil
        }

        func failed(_ url: URL, _ log: MemoryEventLog, as event: ContainerEvent.LoadEvent = .failed) async -> Bool {
            await TestLoop.wait(timeout: .seconds(20)) {
                log.events.contains { if case .load(event, url.absoluteString, _, _, _) = $0 { return true }; return false }
            }
        }

        // MARK: Proxy

        @Test func aPageServedOnlyThroughTheProxyLoadsThroughTinyproxyAndNotWithoutIt() async throws {
            let folder = try Certificates.folder()
            let server = try LoopbackHTTPServer(pages: ["index.html": Self.page], arguments: ["--require-via"])
            defer { server.stop() }
            let proxy = try Tinyproxy(folder: folder)
            defer { proxy.stop() }
            let url = server.url("index.html")

            let (through, throughLog) = try open(url) { $0.proxy(.custom(URL(string: "http://127.0.0.1:\(proxy.port)")!)) }
            #expect(await finished(url, throughLog))
            #expect(await title(through) == "real page")
            #expect(proxy.log.contains("GET \(url.absoluteString)"), "tinyproxy carried the request")
            through.close()

            // Excluded by no-proxy: the direct request is refused by the server.
            let (direct, directLog) = try open(url) {
                $0.proxy(.custom(URL(string: "http://127.0.0.1:\(proxy.port)")!), except: ["127.0.0.1"])
            }
            #expect(await finished(url, directLog))
            #expect(await title(direct) != "real page")
            direct.close()

            // A proxy that is not there: the load fails, it never goes direct.
            proxy.stop()
            #expect(await TestLoop.wait(timeout: .seconds(5)) { !LoopbackHTTPServer.isListening(port: proxy.port) })
            let (dead, deadLog) = try open(url) { $0.proxy(.custom(URL(string: "http://127.0.0.1:\(proxy.port)")!)) }
            defer { dead.close() }
            #expect(await failed(url, deadLog))
            #expect(await title(dead) != "real page")
        }

        // MARK: Certificate authorities

        @Test func aServerCertifiedByAConfiguredCALoadsAndFailsWithoutTheCAWithAnotherOrForAnotherName() async throws {
            let folder = try Certificates.folder()
            let ca = try Certificates.authority(in: folder, name: "ca")
            let leaf = try Certificates.issue(in: folder, name: "server", by: ca, server: true)
            let server = try LoopbackHTTPServer(pages: ["index.html": Self.page], tls: (leaf.certificate, leaf.key))
            defer { server.stop() }
            let url = server.url("index.html")

            // Without the CA (first: an allowed certificate stays allowed for the process).
            let (without, withoutLog) = try open(url)
            #expect(await failed(url, withoutLog, as: .tlsError))
            #expect(await title(without) != "real page")
            without.close()

            // Another CA vouches for nothing.
            let other = try Certificates.authority(in: folder, name: "other-ca")
            let (wrong, wrongLog) = try open(url) { $0.trustCertificateAuthority(at: other.certificate) }
            #expect(await failed(url, wrongLog, as: .tlsError))
            #expect(await title(wrong) != "real page")
            #expect(!wrongLog.events.contains(.native(action: .caTrusted, detail: "127.0.0.1")))
            wrong.close()

            // The CA's certificate for another host name: the CA vouches for nothing here either.
            let misnamed = try Certificates.issue(in: folder, name: "misnamed", by: ca, server: true, names: "DNS:elsewhere.test")
            let misnamedServer = try LoopbackHTTPServer(pages: ["index.html": Self.page], tls: (misnamed.certificate, misnamed.key))
            defer { misnamedServer.stop() }
            let misnamedURL = misnamedServer.url("index.html")
            let (elsewhere, elsewhereLog) = try open(misnamedURL) { $0.trustCertificateAuthority(at: ca.certificate) }
            #expect(await failed(misnamedURL, elsewhereLog, as: .tlsError))
            #expect(await title(elsewhere) != "real page")
            #expect(!elsewhereLog.events.contains(.native(action: .caTrusted, detail: "127.0.0.1")))
            elsewhere.close()

            let (with, withLog) = try open(url) { $0.trustCertificateAuthority(at: ca.certificate) }
            defer { with.close() }
            #expect(await finished(url, withLog))
            #expect(await TestLoop.wait { withLog.events.contains(.native(action: .caTrusted, detail: "127.0.0.1")) })
            #expect(await title(with) == "real page")
        }

        // MARK: Client certificates

        @Test func aServerRequiringAClientCertificateGetsTheConfiguredOneAndFailsClosedWithoutOrWithAnother() async throws {
            let folder = try Certificates.folder()
            let ca = try Certificates.authority(in: folder, name: "ca")
            let leaf = try Certificates.issue(in: folder, name: "server", by: ca, server: true)
            let client = try Certificates.issue(in: folder, name: "client", by: ca, server: false)
            let server = try LoopbackHTTPServer(pages: ["index.html": Self.page], tls: (leaf.certificate, leaf.key),
                                                arguments: ["--client-ca", ca.certificate])
            defer { server.stop() }
            let url = server.url("index.html")
            let trusted: (Configurator) -> Configurator = { $0.trustCertificate(at: leaf.certificate, forHost: "127.0.0.1") }

            // Without a client certificate: no dialog, the request fails.
            let (without, withoutLog) = try open(url, trusted)
            #expect(await TestLoop.wait(timeout: .seconds(20)) {
                withoutLog.events.contains(.native(action: .blockedDialog, detail: "authentication: 127.0.0.1"))
            })
            #expect(await title(without) != "real page")
            #expect(server.requestedPaths.isEmpty)
            without.close()

            // A certificate the server's CA did not sign (on another server: a session keeps
            // the certificate it presented): the handshake fails, no prompt, no page.
            let stranger = try Certificates.issue(in: folder, name: "stranger", by: try Certificates.authority(in: folder, name: "other-ca"),
                                                  server: false)
            let other = try LoopbackHTTPServer(pages: ["index.html": Self.page], tls: (leaf.certificate, leaf.key),
                                               arguments: ["--client-ca", ca.certificate])
            defer { other.stop() }
            let otherURL = other.url("index.html")
            let (wrong, wrongLog) = try open(otherURL) {
                trusted($0).clientCertificate(ClientCertificate(host: "127.0.0.1", certificatePath: stranger.certificate, keyPath: stranger.key))
            }
            #expect(await failed(otherURL, wrongLog))
            #expect(await title(wrong) != "real page")
            #expect(other.requestedPaths.isEmpty)
            #expect(!wrongLog.events.contains(.native(action: .blockedDialog, detail: "authentication: 127.0.0.1")))
            wrong.close()

            let (with, withLog) = try open(url) {
                trusted($0).clientCertificate(ClientCertificate(host: "127.0.0.1", certificatePath: client.certificate, keyPath: client.key))
            }
            defer { with.close() }
            #expect(await finished(url, withLog))
            #expect(withLog.events.contains(.native(action: .clientCertificate, detail: "127.0.0.1")))
            #expect(await title(with) == "real page")
        }

        // MARK: HTTP credentials

        @Test func configuredBasicCredentialsLoadThePageAndWrongOrMissingOnesAreCancelledOnce() async throws {
            let server = try LoopbackHTTPServer(pages: ["index.html": Self.page], arguments: ["--basic", "kiosk:s3cret"])
            defer { server.stop() }
            let url = server.url("basic/index.html")
            let origin = try #require(Origin(url))
            func requests() -> Int { server.requestedPaths.filter { $0 == "/basic/index.html" }.count }

            // Missing: cancelled, no prompt, asked once.
            let (missing, missingLog) = try open(url)
            #expect(await TestLoop.wait(timeout: .seconds(20)) {
                missingLog.events.contains(.native(action: .blockedDialog, detail: "authentication: 127.0.0.1"))
            })
            #expect(await title(missing) != "real page")
            missing.close()
            #expect(requests() == 1)

            // Wrong: sent once, refused, cancelled: no retry loop.
            let (wrong, wrongLog) = try open(url) { $0.credential(HTTPCredential(origin: origin, username: "kiosk", password: "wrong")) }
            #expect(await TestLoop.wait(timeout: .seconds(20)) {
                wrongLog.events.contains(.native(action: .authenticationRefused, detail: "127.0.0.1: credentials refused"))
            })
            try await Task.sleep(for: .milliseconds(500))
            #expect(await title(wrong) != "real page")
            wrong.close()
            #expect(requests() == 3, "the challenge, the wrong credentials, nothing more")

            // Right (another server: a session's credentials stay cached for the origin).
            let good = try LoopbackHTTPServer(pages: ["index.html": Self.page], arguments: ["--basic", "kiosk:s3cret"])
            defer { good.stop() }
            let goodURL = good.url("basic/index.html")
            let (right, rightLog) = try open(goodURL) {
                $0.credential(HTTPCredential(origin: Origin(goodURL)!, username: "kiosk", password: "s3cret"))
            }
            defer { right.close() }
            #expect(await finished(goodURL, rightLog))
            #expect(await title(right) == "real page")
            #expect(rightLog.events.contains(.native(action: .credentials, detail: "kiosk at \(Origin(goodURL)!)")))
            #expect(!rightLog.events.contains { "\($0)".contains("s3cret") }, "the password is never logged")
        }
    }
}

/// Certificates made with openssl for one test, in a temporary folder.
enum Certificates {
    struct Pair { let certificate: String; let key: String }

    static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vitrine-network-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    static func authority(in folder: URL, name: String) throws -> Pair {
        let pair = Pair(certificate: folder.appendingPathComponent("\(name).pem").path, key: folder.appendingPathComponent("\(name).key").path)
        try openssl(["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", pair.key, "-out", pair.certificate, "-days", "2",
                     "-subj", "/CN=vitrine test \(name)", "-addext", "basicConstraints=critical,CA:TRUE",
                     "-addext", "keyUsage=critical,keyCertSign,cRLSign"])
        return pair
    }

    /// A certificate signed by `ca`: a server's for `names` (subjectAltName), or a client's.
    static func issue(in folder: URL, name: String, by ca: Pair, server: Bool, names: String = "IP:127.0.0.1,DNS:localhost") throws -> Pair {
        let pair = Pair(certificate: folder.appendingPathComponent("\(name).pem").path, key: folder.appendingPathComponent("\(name).key").path)
        let request = folder.appendingPathComponent("\(name).csr").path, extensions = folder.appendingPathComponent("\(name).ext")
        try (server ? "subjectAltName=\(names)\nextendedKeyUsage=serverAuth\n" : "extendedKeyUsage=clientAuth\n")
            .write(to: extensions, atomically: true, encoding: .utf8)
        try openssl(["req", "-newkey", "rsa:2048", "-nodes", "-keyout", pair.key, "-out", request, "-subj", "/CN=\(name)"])
        try openssl(["x509", "-req", "-in", request, "-CA", ca.certificate, "-CAkey", ca.key, "-CAcreateserial",
                     "-out", pair.certificate, "-days", "2", "-extfile", extensions.path])
        return pair
    }

    private static func openssl(_ arguments: [String]) throws {
        let made = try runProcess("/usr/bin/openssl", arguments)
        try #require(made.status == 0, "openssl: \(made.stderr)")
    }
}

/// Debian's tinyproxy on a loopback port, in the foreground, logging every request.
final class Tinyproxy {
    let port: Int
    private let logPath: String
    private let process = Process()

    /// `basicAuth`: "user password" the proxy demands of every client (407 otherwise).
    init(folder: URL, basicAuth: String? = nil) throws {
        // A free port: bound, read, let go, and no longer listened on (the probe's
        // process ends after its kill).
        port = try freePort()
        logPath = folder.appendingPathComponent("tinyproxy.log").path
        let config = folder.appendingPathComponent("tinyproxy.conf")
        try """
        Port \(port)
        Listen 127.0.0.1
        Timeout 30
        LogFile "\(logPath)"
        LogLevel Info
        MaxClients 20
        Allow 127.0.0.1
        \(basicAuth.map { "BasicAuth \($0)" } ?? "")
        """.write(to: config, atomically: true, encoding: .utf8)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/tinyproxy")
        process.arguments = ["-d", "-c", config.path]
        process.standardOutput = FileHandle.nullDevice
        let errors = folder.appendingPathComponent("tinyproxy.stderr")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: errors)
        // It logs as it starts ("Starting main loop. Accepting connections." once it listens).
        let started = FactWait(watching: [logPath, errors.path])
        try process.run()
        let port = port, process = process
        started.wait(timeout: 15) { LoopbackHTTPServer.isListening(port: port) || !process.isRunning }
        guard LoopbackHTTPServer.isListening(port: port) else {
            stop()
            let said = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
            throw LoopbackHTTPServer.ServerError(output: "tinyproxy is not listening on \(port): \(said) \(log)")
        }
    }

    var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    func stop() { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
}
