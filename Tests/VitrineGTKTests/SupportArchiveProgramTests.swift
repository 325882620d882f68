import Foundation
import Testing
import Vitrine
import VitrineTestSupport

extension WebKitTests {
    /// Support bundles from a real kiosk: through `vitrine ctl` on a private session bus and
    /// through `cmd/support` on a real Mosquitto, each unpacked with `tar` and checked for
    /// every part and for the absence of every secret the configuration holds or names.
    @Suite
    struct SupportArchiveProgramTests {
        static let appID = "org.example.SupportKiosk"
        /// Distinctive secrets, one per way a configuration holds or names one.
        static let credentialSecret = "cred-secret-\(UUID().uuidString.prefix(8))"
        static let proxySecret = "proxy-secret-\(UUID().uuidString.prefix(8))"
        static let commentSecret = "comment-secret-\(UUID().uuidString.prefix(8))"

        @Test func aKioskBundlesItsStateWithoutItsSecretsOverTheBusAndMQTT() throws {
            let broker = try MosquittoBroker()
            defer { broker.remove() }
            let bus = try PrivateSessionBus()
            defer { bus.stop() }
            let server = try LoopbackHTTPServer(pages: ["start.html": "<!doctype html><title>support</title><body style='background:#c0ffee'>Ticket desk"])
            defer { server.stop() }
            let folder = try broker.kioskFolder(credential: Self.credentialSecret)
            let configPath = folder + "/kiosk.toml"
            try """
                # the old password was \(Self.commentSecret)
                preset = "kiosk"
                app-id = "\(Self.appID)"
                start-url = "\(server.url("start.html").absoluteString)"

                \(MosquittoBroker.networkSection(proxyPassword: Self.proxySecret))
                \(broker.remoteSection(deviceID: "desk-1", caFile: broker.caFile))
                """.write(toFile: configPath, atomically: true, encoding: .utf8)
            let secrets = [Self.credentialSecret, Self.proxySecret, Self.commentSecret, broker.password]

            let messages = folder + "/messages.txt"
            let subscriber = try broker.subscribe(["vitrine/desk-1/reply/#"], to: messages)
            defer { kill(subscriber.processIdentifier, SIGKILL) }
            // A retained request waits on the broker: the kiosk must not make a bundle for it.
            // (Not empty: an empty retained message clears the topic; white space is trimmed.)
            try broker.publish("vitrine/desk-1/cmd/support", " ", retained: true)

            let events = folder + "/events.jsonl"
            let program = try ProgramRun(["--no-fullscreen", "--config", configPath, "--events", events], environment: bus.environment)
            defer { program.kill() }
            func waitFor(_ what: String, _ condition: () -> Bool) {
                if !FactWait(watching: [messages, folder]).wait(timeout: 30, until: condition) { Issue.record("timed out waiting for \(what)") }
            }
            waitFor("the start page") { program.events.contains { $0["event"] as? String == "finished" } }
            func replies() -> [[String: Any]] {
                ((try? String(contentsOfFile: messages, encoding: .utf8)) ?? "").split(separator: "\n")
                    .filter { $0.hasPrefix("vitrine/desk-1/reply/support ") }
                    .compactMap { try? JSONSerialization.jsonObject(with: Data($0.dropFirst("vitrine/desk-1/reply/support ".count).utf8)) as? [String: Any] }
            }
            waitFor("the retained request refused") { replies().count == 1 }
            #expect((replies().first?["error"] as? String)?.hasPrefix("retained commands are ignored") == true)

            // Through `vitrine ctl`.
            let vitrine = try BuiltProducts.path("vitrine")
            func ctl(_ arguments: String...) throws -> (status: Int32, stdout: String, stderr: String) {
                try runProcess(vitrine, ["ctl", "--app-id", Self.appID] + arguments, timeout: 90, environment: bus.environment)
            }
            let viaBus = folder + "/bus.tar.gz"
            let made = try ctl("support-bundle", viaBus)
            #expect(made.status == 0, "\(made.stderr)")
            try Self.checkBundle(viaBus, in: folder + "/bus", secrets: secrets)
            let mode = try FileManager.default.attributesOfItem(atPath: viaBus)[.posixPermissions] as? Int
            #expect(mode == 0o600, "a bundle is the user's alone")

            // Never over a file, never through a symbolic link: `ctl` says so, and the instance
            // itself refuses when a client skips `ctl`'s check.
            let existing = folder + "/existing.tar.gz"
            try "keep me".write(toFile: existing, atomically: true, encoding: .utf8)
            let overwrite = try ctl("support-bundle", existing)
            #expect(overwrite.status != 0 && overwrite.stderr.contains("already exists"), "\(overwrite)")
            let victim = folder + "/victim.txt"
            let link = folder + "/link.tar.gz"
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: victim)
            #expect(try ctl("support-bundle", link).status != 0)
            for target in [existing, link] {
                let direct = try runProcess("/usr/bin/gapplication", ["action", Self.appID, "support", "'\(target)'"], timeout: 20,
                                            environment: bus.environment)
                #expect(direct.status == 0, "\(direct.stderr)")
                // The instance answers on its standard error (the bus has no reply channel).
                #expect(program.wait(timeout: 60) { program.standardError.contains("\(target) already exists; a support bundle never replaces a file") },
                        "\(program.standardError)")
            }
            #expect(try String(contentsOfFile: existing, encoding: .utf8) == "keep me")
            #expect(!FileManager.default.fileExists(atPath: victim), "the link was followed")

            // Through MQTT: published on `support`.
            let viaMQTT = folder + "/mqtt.tar.gz"
            let bundleSubscriber = try broker.subscribe(["vitrine/desk-1/support"], to: viaMQTT, raw: true, count: 1)
            defer { kill(bundleSubscriber.processIdentifier, SIGKILL) }
            try broker.publish("vitrine/desk-1/cmd/support", "")
            waitFor("the MQTT bundle's reply") { replies().count == 2 }
            #expect(replies().last?["ok"] as? Bool == true, "\(replies())")
            #expect(waitForExit(of: bundleSubscriber, timeout: 30), "the bundle never came on the support topic")
            try Self.checkBundle(viaMQTT, in: folder + "/mqtt", secrets: secrets)

            // A flood, back to back from one client: one bundle at a time, every request answered.
            let flood = folder + "/flood.txt"
            try String(repeating: " \n", count: 6).write(toFile: flood, atomically: true, encoding: .utf8)
            let sent = try runProcess("/bin/sh", ["-c", "exec /usr/bin/mosquitto_pub \"$@\" < \(flood)", "sh"]
                                      + broker.clientArguments + ["-t", "vitrine/desk-1/cmd/support", "-l"], timeout: 20)
            #expect(sent.status == 0, "\(sent.stderr)")
            waitFor("every flooded request answered") { replies().count == 8 }
            let answers = replies().dropFirst(2)
            #expect(answers.contains { $0["ok"] as? Bool == true })
            #expect(answers.contains { ($0["error"] as? String)?.contains("already being made") == true }, "\(answers)")
            #expect(program.process.isRunning, "the kiosk stays up")
        }

        /// Unpacks `archive` and checks every part, and that no secret is anywhere in it.
        static func checkBundle(_ archive: String, in folder: String, secrets: [String]) throws {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let unpacked = try runProcess("/usr/bin/tar", ["-xzf", archive, "-C", folder])
            #expect(unpacked.status == 0, "\(unpacked.stderr)")
            func part(_ name: String) -> String { (try? String(contentsOfFile: folder + "/" + name, encoding: .utf8)) ?? "" }
            // The journal only when the test itself runs in a systemd service.
            let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0 != "journal.txt" }.sorted()
            #expect(names == ["MANIFEST.txt", "configuration.toml", "events.jsonl", "metrics.prom", "renderer.txt", "screenshot.png", "versions.txt"])
            let journal = FileManager.default.fileExists(atPath: folder + "/journal.txt")
            #expect(journal != part("MANIFEST.txt").contains("journal.txt: missing: this process does not run in a systemd service"))
            #expect(part("configuration.toml").contains("app-id = '\(appID)'") || part("configuration.toml").contains("app-id = \"\(appID)\""),
                    "\(part("configuration.toml"))")
            #expect(part("configuration.toml").contains("<redacted>"))
            #expect(part("events.jsonl").contains("\"event\":\"finished\""))
            for component in ["Vitrine: ", "WebKitGTK: 2.", "GTK: 3.", "GStreamer: GStreamer 1.", "kernel: Linux "] {
                #expect(part("versions.txt").contains(component), "\(component) in \(part("versions.txt"))")
            }
            #expect(part("renderer.txt").contains("hardware-acceleration: ") && part("renderer.txt").contains("display: GdkX11Display"))
            // Compositing off: WebKit was told not to look for its DMA-BUF renderer, and the
            // render device the program named for the first web process has left its environment.
            let renderer = part("renderer.txt")
            #expect(renderer.contains("dmabuf-renderer: off (not looked for") == renderer.contains("hardware-acceleration: never"), "\(renderer)")
            #expect(!renderer.contains("\(RenderingChoice.renderDeviceVariable): \(RenderingChoice.noRenderDevice)"), "\(renderer)")
            #expect(part("metrics.prom").contains("vitrine_up 1"))
            let png = try Data(contentsOf: URL(fileURLWithPath: folder + "/screenshot.png"))
            #expect(png.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
            let width = png.count > 24 ? png[16..<20].reduce(0) { $0 << 8 | Int($1) } : 0
            #expect(width >= 300, "the window's width, not a stub: \(width)")
            // No secret anywhere: every file's bytes, the archive's own too.
            for secret in secrets {
                let found = try runProcess("/bin/grep", ["-r", "-a", "-l", "-F", secret, folder])
                #expect(found.status == 1, "\(secret) is in \(found.stdout)")
                #expect(try runProcess("/bin/zgrep", ["-a", "-c", "-F", secret, archive]).stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "0")
            }
        }
    }
}
