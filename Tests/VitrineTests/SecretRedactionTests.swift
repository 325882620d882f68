import Foundation
import Logging
import Testing
import Vitrine
import VitrineConfigFile
import VitrineTestSupport

/// Credentials as types and every output's redaction, decided without a display. Secrets
/// added to the process's `SecretMask.shared` are unique per run, so no other test's text
/// can contain them.
@Suite("Secrets: credential types, URL and text redaction, the mask")
struct SecretRedactionTests {
    static func unique(_ name: String) -> String { "\(name)-\(UUID().uuidString.prefix(8))" }

    @Test func aURLsPasswordUserTokenAndSecretParametersAreRedacted() {
        #expect(Redaction.url("http://viewer:pa55@host:8080/a?b=1") == "http://viewer:<redacted>@host:8080/a?b=1")
        #expect(Redaction.url("https://ghp_TOKEN@github.example/x") == "https://<redacted>@github.example/x",
                "a user name alone is often a token")
        #expect(Redaction.url("https://h/p?page=2&access_token=abc&X-Amz-Signature=f00&key=k#id_token=t&view=1")
                == "https://h/p?page=2&access_token=<redacted>&X-Amz-Signature=<redacted>&key=<redacted>#id_token=<redacted>&view=1")
        #expect(Redaction.url("https://h/p?page=2#top") == "https://h/p?page=2#top", "nothing secret: unchanged")
        #expect(Redaction.url("not a url") == "not a url")
        // An @ in the path is not user info.
        #expect(Redaction.url("https://h/users/@me") == "https://h/users/@me")
    }

    @Test func everyURLInFreeTextIsRedacted() {
        let text = #"failed: "http://u:s3@a/x" then ws://v:w@b?token=q done"#
        #expect(Redaction.text(text) == #"failed: "http://u:<redacted>@a/x" then ws://v:<redacted>@b?token=<redacted> done"#)
        #expect(Redaction.text("{\"url\":\"https://t@h/\"}") == "{\"url\":\"https://<redacted>@h/\"}")
        #expect(Redaction.text("no urls here: a:b@c") == "no urls here: a:b@c")
    }

    @Test func theMaskCatchesEveryFormOfAKnownSecret() {
        let mask = SecretMask()
        let secret = "pw/with+odd=chars"
        mask.add([Credential(secret)])
        let forms = [secret, "pw%2Fwith%2Bodd%3Dchars", "pw%2fwith%2bodd%3dchars",
                     Data(secret.utf8).base64EncodedString(),
                     secret.utf8.map { String(format: "%02x", $0) }.joined(),
                     secret.utf8.map { String(format: "%02X", $0) }.joined()]
        for form in forms {
            let masked = mask.masked("before \(form) after")
            #expect(masked == "before <redacted> after" || !masked.contains(form), "\(form) → \(masked)")
            #expect(!masked.contains(form))
        }
        mask.add([Credential("abc")])
        #expect(mask.masked("abc") == "abc", "too short to mask without making every log unreadable")
        #expect(SecretMask().masked(secret) == secret, "another mask knows nothing of it")
    }

    @Test func aCredentialPrintsRedactedInEveryForm() throws {
        let credential = Credential("hunter2-secret")
        #expect("\(credential)" == "<redacted>")
        #expect(String(describing: credential) == "<redacted>")
        #expect(String(reflecting: credential) == "<redacted>")
        var dumped = ""
        dump(credential, to: &dumped)
        #expect(!dumped.contains("hunter2"), "\(dumped)")
        let json = String(decoding: try JSONEncoder().encode(["password": credential]), as: UTF8.self)
        #expect(json == #"{"password":"<redacted>"}"#)
        #expect(credential.revealed == "hunter2-secret")
        let http = HTTPCredential(origin: Origin(string: "https://a.example")!, username: "kiosk", password: credential)
        var dumpedHTTP = ""
        dump(http, to: &dumpedHTTP)
        #expect(!"\(http)".contains("hunter2") && !dumpedHTTP.contains("hunter2"), "\(dumpedHTTP)")
        let upload = SecretURL(URL(string: "https://up.example/x/hunter2-secret.tar.gz")!)
        #expect("\(upload)" == "<redacted>" && String(reflecting: upload) == "<redacted>")
        #expect(NetworkProxy("http://p:hunter2-secret@proxy:3128")!.description == "http://p:<redacted>@proxy:3128")
    }

    /// Every credential a configuration file can hold is in `Configuration.credentials`.
    @Test func aConfigurationNamesEveryCredentialItHolds() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(Self.unique("credentials")).path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for (name, secret) in [("mqtt.pass", "mqtt-pw-1"), ("cred.pass", "cred-pw-2")] {
            try secret.write(toFile: folder + "/" + name, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: folder + "/" + name)
        }
        let path = folder + "/kiosk.toml"
        try """
            preset = "kiosk"
            start-url = "https://viewer:url-pw-3@a.example/?token=query-pw-4"

            [network]
            proxy = "http://proxyuser:proxy-pw-5@proxy.corp:3128"

            [[network.credentials]]
            origin = "https://intranet.corp"
            username = "kiosk"
            password-file = "cred.pass"

            [remote]
            support-upload = "https://support.corp/upload/upload-pw-6.tar.gz"

            [remote.mqtt]
            broker = "mqtts://mqtt.corp:8883"
            username = "kiosk"
            password-file = "mqtt.pass"
            """.write(toFile: path, atomically: true, encoding: .utf8)
        let configuration = try ConfigFile(path: path).configuration()
        let revealed = Set(configuration.credentials.map(\.revealed))
        for secret in ["mqtt-pw-1", "cred-pw-2", "url-pw-3", "query-pw-4", "proxy-pw-5"] {
            #expect(revealed.contains(secret), "\(secret) not in \(revealed)")
        }
        #expect(revealed.contains("https://support.corp/upload/upload-pw-6.tar.gz"))
        // check-config's summary shows none of them.
        let summary = ConfigFile.summary(of: configuration, preset: .kiosk).map { "\($0.0): \($0.1)" }.joined(separator: "\n")
        for secret in ["url-pw-3", "query-pw-4", "proxy-pw-5", "upload-pw-6"] {
            #expect(!Redaction.text(summary).contains(secret), "\(summary)")
        }
    }

    /// The container's sinks are told the redacted event; every text field goes through it.
    @MainActor @Test func sinksAreToldOnlyRedactedEvents() throws {
        let secret = Self.unique("sink-secret")
        SecretMask.shared.add([Credential(secret)])
        var sinks = EventSinks()
        let log = MemoryEventLog()
        sinks.add(log)
        let url = "http://viewer:pw-\(secret)@127.0.0.1/?token=\(secret)"
        let events: [ContainerEvent] = [
            .navigation(url: url, handler: "h", policy: .allow, navigationType: .other, target: .currentView, phase: .request),
            .load(event: .failed, url: url, error: "cannot reach \(url)"),
            .native(action: .retryLoad, detail: url),
            .message(name: "m", outcome: .rejected, error: "bad \(secret)", origin: "https://a.example", code: nil),
            .print(queue: "file://\(secret)", job: 1, outcome: .failed, error: secret),
            .bundleSync(BundleSyncReport(url: url, outcome: .failed, reason: "HTTP 403 for \(url)")),
        ]
        for event in events { sinks.record(event) }
        #expect(log.events.count == events.count)
        for event in log.events {
            let line = String(decoding: try JSONEncoder().encode(event), as: UTF8.self)
            #expect(!line.contains(secret) && !line.contains("pw-"), "\(line)")
            #expect(line.contains("<redacted>"), "\(line)")
        }
    }

    /// The schema's `x-redacted` marks are exactly the fields `ContainerEvent.redacted`
    /// redacts: every text field of every form planted with a URL password, each checked.
    @Test func theSchemaMarksExactlyTheRedactedFields() throws {
        let planted = "https://u:planted-pw@h/"
        let events: [ContainerEvent] = [
            .navigation(url: planted, handler: planted, policy: .allow, navigationType: .other, target: .currentView, phase: .request),
            .message(name: planted, outcome: .rejected, error: planted, origin: planted, code: planted),
            .load(event: .failed, url: planted, error: planted),
            .native(action: .retry, detail: planted),
            .permission(kind: planted, origin: planted, granted: false),
            .print(queue: planted, job: 1, outcome: .failed, error: planted),
            .proofOfPlay(PlayRecord(item: 0, url: planted, start: Date(timeIntervalSince1970: 0), end: Date(timeIntervalSince1970: 1), outcome: .shown)),
            .bundleSync(BundleSyncReport(url: planted, outcome: .failed, version: planted, reason: planted)),
        ]
        for event in events {
            let object = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(event.redacted)) as? [String: Any])
            let type = try #require(object["type"] as? String)
            let redacted = Set(object.compactMap { key, value in (value as? String)?.contains("<redacted>") == true ? key : nil })
            let kept = Set(object.compactMap { key, value in (value as? String)?.contains("planted-pw") == true ? key : nil })
            #expect(!redacted.isEmpty, "\(type): something is redacted")
            #expect(redacted == EventSchema.redactedFields(of: type), "\(type): redacted \(redacted), kept \(kept)")
        }
    }

    /// What MQTT publishes: the retained state and every reply.
    @Test func theStateAndRepliesAreRedacted() {
        let secret = Self.unique("state-secret")
        SecretMask.shared.add([Credential(secret)])
        var state = KioskState(version: "1")
        state.observe(.load(event: .finished, url: "http://u:\(secret)@h/", error: nil))
        state.observe(.load(event: .failed, url: "http://u:\(secret)@h/", error: "no"))
        state.title = "Welcome \(secret)"
        state.alert = "https://h/alert?token=\(secret)"
        let stateText = state.json.jsonText
        #expect(!stateText.contains(secret), "\(stateText)")
        #expect(stateText.contains("http://u:<redacted>@h/"))
        let reply = RemoteReply.failure("rolled back: the new start page https://\(secret)@h/ did not load").json.jsonText
        #expect(!reply.contains(secret) && reply.contains("<redacted>"), "\(reply)")
    }

    /// A support bundle's text parts are redacted once more: lines written before a secret
    /// was known, other programs' journal lines.
    @Test func aSupportArchivesTextPartsAreRedacted() {
        let secret = Self.unique("bundle-secret")
        SecretMask.shared.add([Credential(secret)])
        let inputs = SupportArchive.Inputs(configuration: "title = \"\(secret)\"\n", events: ["{\"detail\":\"\(secret)\"}"],
                                          versions: [("Vitrine", secret)], renderer: [("gpu", "http://u:p@h/")],
                                          metrics: "x{detail=\"\(secret)\"} 1\n", journal: "x11vnc: \(secret)\n",
                                          missing: ["screenshot.png": "failed at \(secret)"])
        let bundle = SupportArchive(inputs, createdAt: "now")
        for file in bundle.files {
            let text = String(decoding: file.bytes, as: UTF8.self)
            #expect(!text.contains(secret) && !text.contains(":p@"), "\(file.name): \(text)")
        }
    }

    /// Log lines through swift-log are redacted before they are written.
    @Test func logLinesAreRedacted() {
        let secret = Self.unique("log-secret")
        SecretMask.shared.add([Credential(secret)])
        let recorder = RecordingLogHandler()
        var logger = Logger(label: "test") { _ in RedactingLogHandler(recorder) }
        logger.logLevel = .info
        logger.warning("opening http://u:pw@h/ with \(secret)", metadata: ["url": "https://t@h/?key=\(secret)"])
        let lines = recorder.lines.withLock { $0 }
        #expect(lines.count == 1)
        #expect(lines.allSatisfy { !$0.contains(secret) && !$0.contains(":pw@") && !$0.contains("https://t@") }, "\(lines)")
    }
}

/// Keeps what it is asked to log, message and metadata, as text.
private struct RecordingLogHandler: LogHandler {
    final class Lines: @unchecked Sendable {
        private var value: [String] = []
        private let lock = NSLock()
        func withLock<T>(_ body: (inout [String]) -> T) -> T { lock.lock(); defer { lock.unlock() }; return body(&value) }
    }
    let lines = Lines()
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?
    var logLevel: Logger.Level = .trace
    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }
    func log(event: LogEvent) {
        let text = "\(event.message) \(event.metadata ?? [:])"
        lines.withLock { $0.append(text) }
    }
}
