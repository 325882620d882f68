import CWebKitGTK
import Foundation
import Testing
import Vitrine
@testable import VitrineGTK
import VitrineTestingGTK

extension WebKitTests {
    /// A playlist bundle item in a real window, synced from a real loopback server with
    /// ETags: v1 shows, v2 replaces it after the next sync, an outage keeps v2 (a failed
    /// sync, no error page), and a start with the server down shows v2 from disk.
    @Suite @MainActor
    struct BundleItemTests {
        static func page(_ version: String) -> String {
            "<!doctype html><title>\(version)</title><body style=\"background:#234\"><h1>\(version)</h1></body>"
        }

        func sync(_ outcome: BundleSyncReport.Outcome) -> @Sendable (ContainerEvent) -> Bool {
            { if case let .bundleSync(report) = $0 { return report.outcome == outcome }; return false }
        }

        func shown(_ url: URL) -> @Sendable (ContainerEvent) -> Bool {
            { if case let .native(.schedulePageShown, detail) = $0 { return detail == "0 \(url.absoluteString)" }; return false }
        }

        func kiosk(_ source: BundleSource, start: URL, appID: String) throws -> ContainerFixture {
            let schedule = Schedule(playlist: [PlaylistEntry(url: source.pageURL, duration: .seconds(600), bundle: source)])
            return try ContainerFixture(ConfiguratorFactory.make(for: .kiosk).startURL(start).fullscreen(false).appID(appID)
                .preference(\.schedule, schedule))
        }

        @Test func aBundleShowsUpdatesAndOutlivesTheNetwork() async throws {
            let server = try BundleServer()
            defer { server.close() }
            try server.publish("lobby.zip", files: ["index.html": Self.page("v1"), "style/site.css": "h1{color:#fff}"])
            try "<!doctype html><title>start</title>".write(to: server.directory.appendingPathComponent("start.html"),
                                                           atomically: true, encoding: .utf8)
            let appID = "test.vitrine.bundle\(UInt32.random(in: 0...UInt32.max))"
            let source = BundleSource(archiveURL: server.url("lobby.zip"), syncInterval: .milliseconds(500))

            var fixture = try kiosk(source, start: server.url("start.html"), appID: appID)
            let data = fixture.container.configuration.appDataDirectory
            defer { try? FileManager.default.removeItem(at: data) }
            fixture.container.start()
            try await fixture.next(where: sync(.updated))
            try await fixture.next(where: shown(source.pageURL))
            #expect(try await fixture.container.evaluate("document.title") == "v1")
            // The page is served from its version folder and nothing above it: not the
            // bundle's state.json one level up, however the path climbs.
            let climbs = try await fixture.container.evaluateAsync("""
                const paths = ["/../state.json", "/%2e%2e/state.json", "/..%2fstate.json", "/%2e%2e%2f%2e%2e%2fstate.json", "/style/../../state.json"];
                const seen = [];
                for (const path of paths) {
                    const response = await fetch(location.origin + path);
                    seen.push(response.status + (/etag|version/.test(await response.text()) ? " leaked" : ""));
                }
                const css = await fetch("/style/site.css");
                seen.push(css.status + " " + (await css.text()));
                return seen.join(",");
                """)
            #expect(climbs == "404,404,403,403,404,200 h1{color:#fff}")
            // The next syncs ask conditionally and get 304.
            try await fixture.next(where: sync(.unchanged))
            #expect(server.requests.contains { $0.hasSuffix(" 304") })

            try server.publish("lobby.zip", files: ["index.html": Self.page("v2")])
            try await fixture.next(where: sync(.updated))
            try await fixture.next(where: shown(source.pageURL))
            #expect(try await fixture.container.evaluate("document.title") == "v2")
            // One version on disk: the old one went after the swap.
            let store = BundleStore(dataFolder: data, source: source)
            #expect(try FileManager.default.contentsOfDirectory(atPath: store.versionsFolder.path).count == 1)

            server.stop()
            let failed = try await fixture.next(where: sync(.failed))
            if case let .bundleSync(report) = failed { #expect(report.version != nil && report.reason != nil) }
            try await fixture.roundTrip()
            #expect(try await fixture.container.evaluate("document.title") == "v2")
            #expect(!fixture.log.events.contains { if case .native(.errorPage, _) = $0 { return true }; return false })
            #expect(!fixture.log.events.contains { if case .native(.schedulePageFailed, _) = $0 { return true }; return false })
            fixture.close()

            // Started again while the server's port takes connections and never answers: v2
            // from disk at once, without waiting for the sync.
            let silent = try SilentListener(port: server.port)
            fixture = try kiosk(source, start: server.url("start.html"), appID: appID)
            defer { fixture.close() }
            fixture.container.start()
            try await fixture.next(where: shown(source.pageURL))
            #expect(try await fixture.container.evaluate("document.title") == "v2")
            #expect(!fixture.log.events.contains { if case .bundleSync = $0 { return true }; return false })
            // Still hanging a round trip later: v2 stays, no error page.
            try await fixture.roundTrip()
            #expect(try await fixture.container.evaluate("document.title") == "v2")
            #expect(!fixture.log.events.contains { if case .native(.errorPage, _) = $0 { return true }; return false })
            // The network gone altogether: the hanging sync fails, v2 stays.
            silent.close()
            try await fixture.next(where: sync(.failed))
            #expect(try await fixture.container.evaluate("document.title") == "v2")
        }
    }

    /// Hostile archives, synced by the adapter's own job (libsoup, libarchive) from a real
    /// server: refused, with nothing written outside the bundle's folder and nothing swapped in.
    @Suite @MainActor
    struct BundleAttackTests {
        let server: BundleServer
        let data: URL

        init() throws {
            server = try BundleServer()
            data = FileManager.default.temporaryDirectory.appendingPathComponent("vitrine-bundle-data-\(UUID().uuidString)")
        }

        func run(_ source: BundleSource) -> (BundleSyncReport, BundleStore) {
            let store = BundleStore(dataFolder: data, source: source)
            return (BundleSyncJob(source: source, store: store, rules: .standard).run(), store)
        }

        /// Every file under the data folder, relative to it.
        var filesOnDisk: [String] { (try? FileManager.default.subpathsOfDirectory(atPath: data.path)) ?? [] }

        @Test func aZipSlipIsRefusedAndWritesNothingOutside() throws {
            defer { server.close(); try? FileManager.default.removeItem(at: data) }
            try server.publish("slip.zip", files: ["index.html": "ok", "../../escaped.txt": "owned", "../escaped-too.txt": "owned"])
            let (report, store) = run(BundleSource(archiveURL: server.url("slip.zip")))
            #expect(report.outcome == .failed)
            #expect(report.reason?.contains("leaves the bundle") == true)
            #expect(!store.hasCurrent)
            #expect(!filesOnDisk.contains { $0.hasSuffix("escaped.txt") || $0.hasSuffix("escaped-too.txt") })
            #expect(!FileManager.default.fileExists(atPath: data.deletingLastPathComponent().appendingPathComponent("escaped.txt").path))
            #expect(!FileManager.default.fileExists(atPath: data.appendingPathComponent("escaped.txt").path))
        }

        @Test func aSymlinkToPasswdIsRefused() throws {
            defer { server.close(); try? FileManager.default.removeItem(at: data) }
            try server.publish("link.zip", files: ["index.html": "ok"], symlinks: ["passwd.txt": "/etc/passwd"])
            let (report, store) = run(BundleSource(archiveURL: server.url("link.zip")))
            #expect(report.outcome == .failed)
            #expect(report.reason?.contains("link") == true)
            #expect(!store.hasCurrent)
            #expect(!filesOnDisk.contains { $0.hasSuffix("passwd.txt") })
        }

        @Test func aBundleWhoseHashDiffersIsNotSwappedIn() throws {
            defer { server.close(); try? FileManager.default.removeItem(at: data) }
            try server.publish("lobby.zip", files: ["index.html": "v1"])
            let good = BundleSource(archiveURL: server.url("lobby.zip"))
            #expect(run(good).0.outcome == .updated)
            let expected = String(repeating: "ab", count: 32)
            try server.publish("lobby.zip", files: ["index.html": "tampered"])
            let (report, store) = run(BundleSource(archiveURL: server.url("lobby.zip"), sha256: expected))
            #expect(report.outcome == .failed)
            #expect(report.reason?.contains("sha256 mismatch") == true)
            // v1 stays current.
            let index = try String(contentsOf: store.current.appendingPathComponent("index.html"), encoding: .utf8)
            #expect(index == "v1")
        }

        @Test func anArchiveOverTheDownloadLimitIsDropped() throws {
            defer { server.close(); try? FileManager.default.removeItem(at: data) }
            // Random digits: they do not compress below the limit.
            try server.publish("big.zip", files: ["index.html": String((0..<8192).map { _ in "0123456789abcdef".randomElement()! })])
            let source = BundleSource(archiveURL: server.url("big.zip"))
            let store = BundleStore(dataFolder: data, source: source)
            let report = BundleSyncJob(source: source, store: store, rules: BundleArchiveRules(maxArchiveBytes: 1024)).run()
            #expect(report.outcome == .failed)
            #expect(report.reason == "the archive is larger than 1024 bytes")
            #expect(!store.hasCurrent)
            // The partial download is gone too.
            #expect(filesOnDisk.allSatisfy { !$0.hasSuffix(".part") })
        }

        @Test func aZipBombIsRefusedBeforeItIsUnpacked() throws {
            defer { server.close(); try? FileManager.default.removeItem(at: data) }
            // 8 MB of zeros compress to a few KB.
            try server.publish("bomb.zip", files: ["index.html": "ok"], zeros: ["zeros.txt": 8 << 20])
            #expect(try FileManager.default.attributesOfItem(atPath: server.directory.appendingPathComponent("bomb.zip").path)[.size]
                as? Int ?? .max < 64 << 10)
            let source = BundleSource(archiveURL: server.url("bomb.zip"))
            let store = BundleStore(dataFolder: data, source: source)
            let report = BundleSyncJob(source: source, store: store, rules: BundleArchiveRules(maxUnpackedBytes: 1 << 20)).run()
            #expect(report.outcome == .failed)
            #expect(report.reason == "it unpacks to more than 1048576 bytes")
            #expect(!store.hasCurrent)
            #expect(!filesOnDisk.contains { $0.hasSuffix("zeros.txt") })
        }

        @Test func aServerThatHangsDelaysNoOtherBundle() async throws {
            let silent = try SilentListener(port: 0)
            defer { silent.close(); server.close(); try? FileManager.default.removeItem(at: data) }
            try server.publish("lobby.zip", files: ["index.html": "v1"])
            let sources = [BundleSource(archiveURL: URL(string: "http://127.0.0.1:\(silent.port)/menu.zip")!),
                           BundleSource(archiveURL: server.url("lobby.zip"))]
            let jobs = sources.map { BundleSyncJob(source: $0, store: BundleStore(dataFolder: data, source: $0), rules: .standard) }
            final class Done { var hanging = false }
            let done = Done()
            let hanging = Task { @MainActor in
                let report = await jobs[0].runOnQueue()
                done.hanging = true
                return report
            }
            #expect(await TestLoop.wait { silent.hasConnection }, "the hanging bundle's sync never reached its server")
            // The other bundle syncs while the first one's server keeps it waiting.
            #expect(await jobs[1].runOnQueue().outcome == .updated)
            #expect(!done.hanging, "the other bundle waited for the hanging one")
            silent.close()
            #expect(await hanging.value.outcome == .failed)
        }

        @Test func aBundleWithoutItsEntryIsRefused() throws {
            defer { server.close(); try? FileManager.default.removeItem(at: data) }
            try server.publish("lobby.zip", files: ["other.html": "x"])
            let (report, store) = run(BundleSource(archiveURL: server.url("lobby.zip")))
            #expect(report.outcome == .failed)
            #expect(!store.hasCurrent)
            #expect(!filesOnDisk.contains { $0.hasSuffix("other.html") })
        }
    }
}

extension BundleServer {
    /// The requests so far: "PATH IF-NONE-MATCH STATUS".
    var requests: [String] {
        ((try? String(contentsOfFile: requestLog, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }
}

/// A loopback port that takes connections into its backlog and never answers them (a
/// server that hangs); closing it resets them. Port 0: a free one, then `port`.
final class SilentListener {
    private var descriptor: Int32
    private(set) var port = 0

    init(port: Int) throws {
        // Close-on-exec: a web process started meanwhile must not keep the port open.
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var yes: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        guard bound, listen(descriptor, 16) == 0 else {
            Glibc.close(descriptor)
            throw BundleServer.ServerError(output: "cannot listen on \(port): \(String(cString: strerror(errno)))")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        self.port = Int(UInt16(bigEndian: address.sin_port))
    }

    /// Whether a client has connected (its connection waits in the backlog).
    var hasConnection: Bool {
        var waiting = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&waiting, 1, 0) == 1
    }

    func close() {
        guard descriptor >= 0 else { return }
        Glibc.close(descriptor)
        descriptor = -1
    }

    deinit { close() }
}
