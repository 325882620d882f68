import Foundation
import Testing
import Vitrine
import VitrineConfigFile
import VitrineTestSupport

/// `[network]`: the file's keys onto the Configurator, check-config's positions for bad
/// values, and which credential answers which server (display-free).
@Suite("Network: config and credential decisions")
struct NetworkConfigTests {
    private func problems(_ text: String, in folder: borrowing ConfigFolder) -> [String] {
        configurationErrors(text, named: "n.toml", in: folder)
    }

    private func passwordFile(_ folder: borrowing ConfigFolder, mode: Int, text: String = "s3cret\n") throws -> String {
        let path = try folder.write("intranet.pass", text)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        return path
    }

    @Test func everyKeyMapsOntoTheConfiguration() throws {
        let folder = try ConfigFolder()
        try folder.write("corp-ca.pem", "x")
        try folder.write("kiosk.pem", "x")
        try folder.write("kiosk.key", "x")
        _ = try passwordFile(folder, mode: 0o600)
        let configuration = try ConfigFile(text: """
            [network]
            proxy = "http://proxy.corp:3128"
            no-proxy = ["localhost", "*.corp"]
            ca-certificates = ["corp-ca.pem"]
            [[network.client-certificate]]
            host = "Kiosk.corp"
            certificate = "kiosk.pem"
            key = "kiosk.key"
            [[network.credentials]]
            origin = "https://intranet.corp"
            username = "kiosk"
            password-file = "intranet.pass"
            """, path: folder.path + "/n.toml").configuration()
        let network = configuration.network
        #expect(network.proxy == .custom(URL(string: "http://proxy.corp:3128")!))
        #expect(network.noProxy == ["localhost", "*.corp"])
        #expect(network.caCertificates == [folder.path + "/corp-ca.pem"])
        #expect(network.clientCertificates == [ClientCertificate(host: "kiosk.corp", certificatePath: folder.path + "/kiosk.pem",
                                                                 keyPath: folder.path + "/kiosk.key")])
        #expect(network.credentials == [HTTPCredential(origin: Origin(string: "https://intranet.corp")!, username: "kiosk", password: "s3cret")])
        #expect(!"\(network.credentials)".contains("s3cret"))
        let summary = ConfigFile.summary(of: configuration, preset: .default).first { $0.0 == "network" }?.1 ?? ""
        #expect(summary.contains("proxy http://proxy.corp:3128") && !summary.contains("s3cret"))

        let system = try ConfigFile(text: "[network]\nproxy = \"system\"", path: "/tmp/s.toml").configuration()
        #expect(system.network.proxy == .system)
        #expect(try ConfigFile(text: "", path: "/tmp/e.toml").configuration().network == NetworkSettings())
    }

    @Test func badValuesAreReportedAtTheirPosition() throws {
        let folder = try ConfigFolder()
        _ = try passwordFile(folder, mode: 0o644)
        #expect(problems("[network]\nproxy = \"ftp://proxy.corp:21\"", in: folder) == [
            #"DIR/n.toml:2:9: network.proxy must be "system" or a proxy URL such as "http://proxy.corp:3128" (scheme http, https, socks, socks4, socks4a, socks5), got "ftp://proxy.corp:21""#,
        ])
        #expect(problems("[network]\nca-certificates = [\"missing.pem\"]", in: folder) == [
            #"DIR/n.toml:2:20: network.ca-certificates[0] must be an existing file, got "missing.pem" (DIR/missing.pem)"#,
        ])
        #expect(problems("[[network.client-certificate]]\nhost = \"kiosk.corp\"\ncertificate = \"nope.pem\"\nkey = \"nope.key\"", in: folder) == [
            #"DIR/n.toml:3:15: network.client-certificate[0].certificate must be an existing file, got "nope.pem" (DIR/nope.pem)"#,
            #"DIR/n.toml:4:7: network.client-certificate[0].key must be an existing file, got "nope.key" (DIR/nope.key)"#,
        ])
        let credentials = "[[network.credentials]]\norigin = \"https://intranet.corp\"\nusername = \"kiosk\"\npassword-file = "
        #expect(problems(credentials + "\"intranet.pass\"", in: folder) == [
            "DIR/n.toml:4:17: network.credentials[0].password-file 'DIR/intranet.pass' may be read by others (mode 0644); it must be mode 0600 or stricter (chmod 600)",
        ])
        #expect(problems(credentials + "\"absent.pass\"", in: folder) == [
            #"DIR/n.toml:4:17: network.credentials[0].password-file must be an existing file, got "absent.pass" (DIR/absent.pass)"#,
        ])
        #expect(problems("[[network.credentials]]\norigin = \"https://intranet.corp/login\"\nusername = \"kiosk\"", in: folder)
            .contains { $0.hasPrefix("DIR/n.toml:2:10: network.credentials[0].origin must be an origin") })
    }

    @Test func aPasswordFileOfMode0400IsAccepted() throws {
        let folder = try ConfigFolder()
        _ = try passwordFile(folder, mode: 0o400, text: "p\r\n")
        let configuration = try ConfigFile(text: "[[network.credentials]]\norigin = \"http://h:8080\"\nusername = \"u\"\npassword-file = \"intranet.pass\"",
                                           path: folder.path + "/n.toml").configuration()
        #expect(configuration.network.credentials.first?.password == "p")
    }

    @Test func theConfiguredAnswerForTheChallengesOriginOrHostAndARetryIsCancelled() {
        let intranet = Origin(string: "https://intranet.corp")!
        let credential = HTTPCredential(origin: intranet, username: "kiosk", password: "p")
        let certificate = ClientCertificate(host: "kiosk.corp", certificatePath: "/c", keyPath: "/k")
        let network = NetworkSettings().with { $0.credentials = [credential]; $0.clientCertificates = [certificate] }
        func answer(_ origin: String, client: Bool = false, retry: Bool = false) -> AuthenticationAnswer {
            let origin = Origin(string: origin)!
            return network.answer(to: AuthenticationChallenge(origin: origin, host: origin.host, isClientCertificate: client, isRetry: retry))
        }
        #expect(answer("https://intranet.corp") == .credential(credential))
        #expect(answer("https://intranet.corp:443") == .credential(credential))
        #expect(answer("https://intranet.corp", retry: true) == .cancel("credentials refused"))
        #expect(answer("http://intranet.corp") == .unconfigured, "another scheme is another origin")
        #expect(answer("https://intranet.corp:8443") == .unconfigured)
        #expect(answer("https://kiosk.corp:9443", client: true) == .clientCertificate(certificate))
        #expect(answer("https://kiosk.corp", client: true, retry: true) == .cancel("client certificate refused"))
        #expect(answer("https://intranet.corp", client: true) == .unconfigured)
        #expect(NetworkProxy("socks5://127.0.0.1:1080") != nil && NetworkProxy("ftp://p") == nil && NetworkProxy("http://") == nil)
    }

    @Test func aProxysChallengeIsAnsweredByTheCredentialsForTheProxysOriginOnly() {
        let proxyOrigin = Origin(string: "http://proxy.corp:3128")!
        let forProxy = HTTPCredential(origin: proxyOrigin, username: "kiosk", password: "p")
        let forSite = HTTPCredential(origin: Origin(string: "https://intranet.corp")!, username: "site", password: "q")
        func answer(_ network: NetworkSettings, retry: Bool = false) -> AuthenticationAnswer {
            // WebKit names the site's origin in a proxy's challenge: the proxy's origin must not come from it.
            network.answer(to: AuthenticationChallenge(origin: forSite.origin, host: "proxy.corp", isClientCertificate: false,
                                                       isRetry: retry, isForProxy: true))
        }
        let configured = NetworkSettings().with {
            $0.proxy = NetworkProxy("http://proxy.corp:3128")
            $0.credentials = [forSite, forProxy]
        }
        #expect(answer(configured) == .credential(forProxy))
        #expect(answer(configured, retry: true) == .cancel("credentials refused"))
        #expect(answer(configured.with { $0.credentials = [forSite] }) == .unconfigured, "the site's credentials never go to the proxy")
        #expect(answer(configured.with { $0.proxy = NetworkProxy("system") }) == .unconfigured, "the system's proxy: origin unknown")
        #expect(answer(configured.with { $0.proxy = NetworkProxy("http://proxy.corp:8080") }) == .unconfigured)
    }
}

extension NetworkSettings {
    fileprivate func with(_ change: (inout NetworkSettings) -> Void) -> NetworkSettings {
        var copy = self
        change(&copy)
        return copy
    }
}
