import Foundation
import Testing
import VitrineTestSupport

extension WebKitTests {
    /// A proxy that demands credentials (407), answered from `[[network.credentials]]`.
    /// WebKit's network session keeps a proxy's answer, and a cancelled one, for the
    /// process's life, so each case is its own run of the program.
    @Suite
    struct ProxyCredentialsTests {
        /// Runs the program once on a page reachable only through a tinyproxy that demands
        /// `kiosk`/`s3cret`, with credentials for `credentialOrigin`; returns the events log
        /// whether the page's server was reached and the exit status.
        private func run(credentialsFor credentialOrigin: (_ proxy: String, _ site: String) -> String) throws -> (status: Int32, events: String, reached: Bool) {
            let server = try LoopbackHTTPServer(pages: ["index.html": "<!doctype html><title>real page</title>"], arguments: ["--require-via"])
            defer { server.stop() }
            let folder = try ConfigFolder()
            let proxy = try Tinyproxy(folder: URL(fileURLWithPath: folder.path), basicAuth: "kiosk s3cret")
            defer { proxy.stop() }
            let url = server.url("index.html")
            let password = try folder.write("proxy.pass", "s3cret\n")
            chmod(password, 0o600)
            let config = try folder.write("kiosk.toml", """
                preset = "kiosk"
                start-url = "\(url.absoluteString)"
                [window]
                fullscreen = false
                [network]
                proxy = "http://127.0.0.1:\(proxy.port)"
                [[network.credentials]]
                origin = "\(credentialOrigin("http://127.0.0.1:\(proxy.port)", "http://127.0.0.1:\(server.port)"))"
                username = "kiosk"
                password-file = "proxy.pass"
                """)
            let events = folder.path + "/events.jsonl"
            let run = try runProcess(try BuiltProducts.path("vitrine"), ["--config", config, "--exit-after-load", "--events", events])
            let log = (try? String(contentsOfFile: events, encoding: .utf8)) ?? ""
            #expect(!log.contains("s3cret"), "the password is never logged")
            return (run.status, log, server.requestedPaths.contains("/index.html"))
        }

        @Test func theProxysOwnCredentialsAreSentAndASitesAreNot() throws {
            let through = try run { proxy, _ in proxy }
            #expect(through.status == 0, "the first load finished")
            #expect(through.reached, "the page came through the proxy")
            #expect(through.events.contains(#""action":"credentials""#), "\(through.events)")

            let refused = try run { _, site in site }
            #expect(refused.status == 1, "a one-shot run whose page is refused exits 1")
            #expect(!refused.reached, "without the proxy's credentials nothing passes")
            #expect(refused.events.contains(#""detail":"authentication: 127.0.0.1""#), "cancelled, no prompt: \(refused.events)")
            #expect(!refused.events.contains(#""action":"credentials""#), "a site's credentials never go to the proxy")
        }
    }
}
