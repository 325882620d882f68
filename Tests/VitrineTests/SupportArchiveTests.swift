import Foundation
import Testing
import Vitrine
import VitrineConfigFile

/// What a support bundle holds and what it never holds, decided without a display.
@Suite("Support bundles: the parts, the redaction, the destination")
struct SupportArchiveTests {
    /// Every part under its fixed name, the manifest first and saying why a part is missing.
    @Test func everyPartUnderItsName() throws {
        let inputs = SupportArchive.Inputs(configuration: "title = \"Lobby\"\n", events: ["{\"a\":1}", "{\"b\":2}"],
                                          versions: [("Vitrine", "0.1.0"), ("kernel", "Linux 6.1\nx86_64")],
                                          renderer: [("hardware-acceleration", "auto")], screenshot: [0x89, 0x50],
                                          metrics: "vitrine_up 1\n", journal: nil,
                                          missing: ["journal.txt": "this process does not run in a systemd service"])
        let bundle = SupportArchive(inputs, createdAt: "2026-01-01T00:00:00Z")
        #expect(bundle.files.map(\.name) == ["MANIFEST.txt", "configuration.toml", "events.jsonl", "versions.txt", "renderer.txt",
                                             "screenshot.png", "metrics.prom"])
        let text = { (name: String) in String(decoding: bundle.files.first { $0.name == name }!.bytes, as: UTF8.self) }
        #expect(text("events.jsonl") == "{\"a\":1}\n{\"b\":2}\n")
        #expect(text("versions.txt") == "Vitrine: 0.1.0\nkernel: Linux 6.1 / x86_64\n", "one fact, one line")
        #expect(text("MANIFEST.txt").contains("journal.txt: missing: this process does not run in a systemd service"))
        #expect(text("MANIFEST.txt").contains("screenshot.png: the window as shown"))
    }

    /// The ring keeps the newest lines, oldest first.
    @MainActor @Test func recentEventsKeepTheNewest() {
        let recent = RecentEvents(capacity: 3)
        for index in 1...5 { recent.record(.native(action: .emit, detail: "e\(index)")) }
        #expect(recent.lines.map { $0.contains("\"e") ? String($0.split(separator: "\"").first { $0.hasPrefix("e") && $0.count == 2 }!) : "" }
                == ["e3", "e4", "e5"])
    }

    @Test func theUnitComesFromTheCgroup() {
        #expect(SupportArchive.unit(fromCgroup: "0::/system.slice/vitrine-kiosk.service\n") == "vitrine-kiosk.service")
        #expect(SupportArchive.unit(fromCgroup: "0::/user.slice/user-1000.slice/user@1000.service/app.slice/kiosk.service\n") == "kiosk.service")
        #expect(SupportArchive.unit(fromCgroup: "0::/user.slice/user-1000.slice/session-3.scope\n") == nil)
        #expect(SupportArchive.unit(fromCgroup: "0::/\n") == nil)
        #expect(SupportArchive.unit(fromCgroup: "0::/system.slice/a;rm -rf.service\n") == nil, "a strange name is not passed to journalctl")
    }

    /// The session bus names a new `.tar.gz` by its absolute path; a remote never names one.
    @Test func theDestinationIsAnAbsoluteTarGz() throws {
        #expect(try RemoteCommand.parse(name: "support", argument: Array(" /tmp/k.tar.gz\n".utf8), from: .sessionBus).get()
                == .support(path: "/tmp/k.tar.gz"))
        #expect(try RemoteCommand.parse(name: "support", argument: [], from: .mqtt).get() == .support(path: nil))
        for bad in ["k.tar.gz", "/tmp/k.zip", "/tmp/.tar.gz", "/tmp/k\u{1}.tar.gz", ""] {
            guard case .failure(let error) = RemoteCommand.parse(name: "support", argument: Array(bad.utf8), from: .sessionBus) else {
                Issue.record("'\(bad)' was accepted"); continue
            }
            #expect(error.description.contains("absolute path ending in .tar.gz"))
        }
        guard case .failure(let error) = RemoteCommand.parse(name: "support", argument: Array("/etc/passwd".utf8), from: .mqtt) else {
            Issue.record("a remote named a file on the kiosk"); return
        }
        #expect(error.description.contains("takes no argument over MQTT"))
        #expect(RemoteCommandName(ctlName: "support-bundle") == .support)
        #expect(RemoteCommandName(ctlName: "support") == nil)
    }

    /// Uploads go over TLS, or stay on the kiosk.
    @Test func uploadsAreHTTPSOrLoopback() {
        for good in ["https://support.corp/up/k.tar.gz", "http://127.0.0.1:8080/up", "http://localhost/up", "http://[::1]:9/up"] {
            #expect(SupportArchive.acceptsUpload(URL(string: good)!), "\(good)")
        }
        for bad in ["http://support.corp/up", "http://127.0.0.1.evil.example/", "ftp://127.0.0.1/", "file:///tmp/x"] {
            #expect(!SupportArchive.acceptsUpload(URL(string: bad)!), "\(bad)")
        }
    }

    /// Every secret the file holds or names is gone; everything else is still there.
    @Test func theConfigurationIsRedacted() throws {
        let text = #"""
            # old broker password: comment-secret-1
            title = "Lobby"
            start-url = "https://user:url-secret-2@example.org/"

            [network]
            proxy = "http://proxyuser:proxy-secret-3@proxy.corp:3128"

            [[network.credentials]]
            origin = "https://intranet.corp"
            username = "kiosk"
            password-file = "/etc/vitrine/cred-secret-4.pass"

            [remote]
            support-upload = "https://support.corp/up?sig=upload-secret-5"

            [remote.mqtt]
            broker = "mqtts://mqtt.corp:8883"
            username = "lobby"
            password-file = "/etc/vitrine/mqtt-secret-6.pass"
            """#
        let redacted = try #require(ConfigFile.redacted(text))
        for secret in ["comment-secret-1", "url-secret-2", "proxy-secret-3", "cred-secret-4", "upload-secret-5", "mqtt-secret-6"] {
            #expect(!redacted.contains(secret), "\(secret) is in\n\(redacted)")
        }
        for kept in ["Lobby", "user:<redacted>@example.org", "proxyuser:<redacted>@proxy.corp:3128", "intranet.corp", "kiosk",
                     "mqtts://mqtt.corp:8883", "lobby"] {
            #expect(redacted.contains(kept), "\(kept) is missing from\n\(redacted)")
        }
        #expect(redacted.components(separatedBy: "<redacted>").count - 1 == 5)
        #expect(ConfigFile.redacted("title = ") == nil, "text that is not TOML shows nothing")
    }

    /// The upload URL is checked as the kiosk reads it, and a push may not move it.
    @Test func theUploadKeyIsChecked() throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "vitrine-support-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appending(path: "k.toml").path
        let good = try ConfigFile(text: "start-url = \"https://example.org/\"\n[remote]\nsupport-upload = \"https://support.corp/u\"\n", path: path)
        #expect(try good.configuration().supportUpload?.revealed == URL(string: "https://support.corp/u"))
        #expect(throws: ConfigFileError.self) {
            try ConfigFile(text: "[remote]\nsupport-upload = \"http://support.corp/u\"\n", path: path)
        }
        // Whoever may push a configuration may not send the kiosk's next bundles elsewhere.
        let running = "start-url = \"https://example.org/\"\n[remote]\nsupport-upload = \"https://support.corp/u\"\n"
        let error = try #require(throws: ConfigFileError.self) {
            try ConfigFile.checkPush(running.replacing("support.corp", with: "evil.example"), replacing: running, at: path)
        }
        #expect(error.description.contains("remote.support-upload may not be changed by a pushed configuration"))
        try ConfigFile.checkPush(running, replacing: running, at: path)
    }
}
