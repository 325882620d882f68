import Foundation
import Testing
import VitrineTestSupport

extension WebKitTests {
    /// One secret of every kind a configuration holds — a URL's password and token, proxy
    /// credentials, a password file, the broker's password, a secret upload URL — planted in
    /// a real kiosk on a real Mosquitto broker and a private session bus. Every output is
    /// exercised (events file, standard error, MQTT state, events, replies and Home Assistant
    /// discovery, the metrics textfile, support bundles made through `ctl` and uploaded
    /// through MQTT, `check-config`, `ctl`'s output, the app's D-Bus actions, the window
    /// title) and searched for each secret as is, URL-encoded, hex and base64.
    @Suite
    struct PlantedSecretsProgramTests {
        static let appID = "org.example.SecretKiosk"

        static func secret(_ kind: String) -> String { "\(kind)-\(UUID().uuidString.prefix(8).lowercased())" }

        /// The forms a planted secret could leave in: as is, URL-encoded, hex, base64.
        static func forms(of secret: String) -> [String] {
            let bytes = Array(secret.utf8)
            let encoded = secret.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? secret
            let base64 = Data(bytes).base64EncodedString()
            return [secret, encoded, bytes.map { String(format: "%02x", $0) }.joined(), bytes.map { String(format: "%02X", $0) }.joined(),
                    String(base64.prefix(base64.count - (base64.hasSuffix("=") ? 4 : 0)))]
        }

        @Test func noOutputOfAKioskCarriesAPlantedSecret() throws {
            let broker = try MosquittoBroker()
            defer { broker.remove() }
            let bus = try PrivateSessionBus()
            defer { bus.stop() }
            let server = try LoopbackHTTPServer(pages: ["start.html": "<!doctype html><title>Lobby</title><body style='background:#c0ffee'>Welcome"])
            defer { server.stop() }
            let (urlSecret, querySecret, proxySecret, credentialSecret, uploadSecret) =
                (Self.secret("url"), Self.secret("query"), Self.secret("proxy"), Self.secret("cred"), Self.secret("upload"))
            let secrets = [urlSecret, querySecret, proxySecret, credentialSecret, uploadSecret, broker.password]
            let folder = try broker.kioskFolder(credential: credentialSecret)
            let port = server.port
            let configPath = folder + "/kiosk.toml"
            try """
                preset = "kiosk"
                app-id = "\(Self.appID)"
                start-url = "http://viewer:\(urlSecret)@127.0.0.1:\(port)/start.html?token=\(querySecret)"

                \(MosquittoBroker.networkSection(proxyPassword: proxySecret))
                [metrics]
                textfile = "\(folder)/kiosk.prom"
                interval = 1

                [remote]
                support-upload = "http://127.0.0.1:\(port)/upload/\(uploadSecret).tar.gz"

                \(broker.remoteSection(deviceID: "lobby-1", caFile: broker.caFile))
                home-assistant = true
                """.write(toFile: configPath, atomically: true, encoding: .utf8)

            let messages = folder + "/messages.txt"
            // Everything the kiosk publishes (the test's own commands left out).
            let subscriber = try broker.subscribe(["vitrine/#", "homeassistant/#"], excluding: ["vitrine/lobby-1/cmd/#"], to: messages)
            defer { kill(subscriber.processIdentifier, SIGKILL) }
            func published(_ topic: String) -> [String] { MosquittoBroker.payloads(on: topic, in: messages) }

            let events = folder + "/events.jsonl"
            let uploaded = server.directory.path + "/uploads/\(uploadSecret).tar.gz"
            let program = try ProgramRun(["--no-fullscreen", "--config", configPath, "--events", events], environment: bus.environment,
                                         watching: [messages, folder, server.directory.path])
            defer { program.kill() }
            func waitFor(_ what: String, _ condition: () -> Bool) {
                if !program.wait(timeout: 30, until: condition) { Issue.record("timed out waiting for \(what)") }
            }
            waitFor("the start page") { program.events.contains { $0["type"] as? String == "load" && $0["event"] as? String == "finished" } }
            waitFor("the state with the page") { published("vitrine/lobby-1/state").contains { $0.contains("start.html") } }
            waitFor("Home Assistant's discovery") { (try? String(contentsOfFile: messages, encoding: .utf8))?.contains("homeassistant/") == true }

            // Commands whose answers quote URLs: a refused navigation (another origin) and one
            // to a page that is not there, both carrying the secrets.
            try broker.publish("vitrine/lobby-1/cmd/navigate", "http://viewer:\(urlSecret)@127.0.0.2:\(port)/?token=\(querySecret)")
            waitFor("the refused navigation's reply") { !published("vitrine/lobby-1/reply/navigate").isEmpty }
            try broker.publish("vitrine/lobby-1/cmd/navigate", "http://viewer:\(urlSecret)@127.0.0.1:\(port)/missing.html?token=\(querySecret)")
            waitFor("the second navigation's reply") { published("vitrine/lobby-1/reply/navigate").count == 2 }
            // A support bundle uploaded to the secret URL, and one through `ctl`.
            try broker.publish("vitrine/lobby-1/cmd/support", "")
            waitFor("the uploaded bundle") { FileManager.default.fileExists(atPath: uploaded) && !published("vitrine/lobby-1/reply/support").isEmpty }
            #expect(published("vitrine/lobby-1/reply/support").first.map { MosquittoBroker.jsonObject($0)["ok"] as? Bool } == true,
                    "\(published("vitrine/lobby-1/reply/support"))")
            let vitrine = try BuiltProducts.path("vitrine")
            func ctl(_ arguments: String...) throws -> (status: Int32, stdout: String, stderr: String) {
                try runProcess(vitrine, ["ctl", "--app-id", Self.appID] + arguments, timeout: 90, environment: bus.environment)
            }
            let viaBus = folder + "/bus.tar.gz"
            let made = try ctl("support-bundle", viaBus)
            #expect(made.status == 0, "\(made.stderr)")
            let navigated = try ctl("navigate", "http://viewer:\(urlSecret)@127.0.0.3:\(port)/?token=\(querySecret)")
            waitFor("the instance's answer to ctl's refused navigation") { program.standardError.contains("vitrine: remote navigate") }
            let actions = try runProcess("/usr/bin/gdbus", ["call", "--session", "--dest", Self.appID, "--object-path",
                                                             "/" + Self.appID.replacingOccurrences(of: ".", with: "/"),
                                                             "--method", "org.gtk.Actions.DescribeAll"], timeout: 20, environment: bus.environment)
            #expect(actions.status == 0 && actions.stdout.contains("navigate"), "\(actions)")
            waitFor("the metrics file") { ((try? String(contentsOfFile: folder + "/kiosk.prom", encoding: .utf8)) ?? "").contains("vitrine_up 1") }
            let windows = try runProcess("/usr/bin/xwininfo", ["-root", "-tree"], timeout: 20).stdout
            #expect(windows.contains(Self.appID), "the kiosk's window is listed: \(windows)")
            let checked = try runProcess(vitrine, ["check-config", configPath], timeout: 60)
            #expect(checked.status == 0 && checked.stdout.contains("proxyuser:<redacted>@"), "\(checked)")
            #expect(program.end(), "the kiosk ends on SIGTERM")

            // The outputs were exercised: the secrets' places are there, redacted.
            let eventsText = (try? String(contentsOfFile: events, encoding: .utf8)) ?? ""
            #expect(eventsText.contains("viewer:<redacted>@127.0.0.1") && eventsText.contains("token=<redacted>"), "\(eventsText)")
            #expect(published("vitrine/lobby-1/state").contains { $0.contains("viewer:<redacted>@") }, "\(published("vitrine/lobby-1/state"))")
            #expect(published("vitrine/lobby-1/reply/navigate").contains { $0.contains("<redacted>") })

            let outputs: [(String, String)] = [
                ("events file", eventsText), ("standard error", program.standardError), ("standard output", program.standardOutput),
                ("MQTT", (try? String(contentsOfFile: messages, encoding: .utf8)) ?? ""),
                ("metrics", (try? String(contentsOfFile: folder + "/kiosk.prom", encoding: .utf8)) ?? ""),
                ("check-config", checked.stdout + checked.stderr), ("ctl", made.stdout + made.stderr + navigated.stdout + navigated.stderr),
                ("D-Bus actions", actions.stdout), ("window titles", windows),
            ]
            for (name, text) in outputs {
                for secret in secrets {
                    for form in Self.forms(of: secret) { #expect(!text.contains(form), "\(name) carries \(form) (\(secret))") }
                }
            }
            for (name, archive) in [("uploaded bundle", uploaded), ("ctl bundle", viaBus)] {
                let unpacked = folder + "/" + name.replacingOccurrences(of: " ", with: "-")
                try FileManager.default.createDirectory(atPath: unpacked, withIntermediateDirectories: true)
                let untar = try runProcess("/usr/bin/tar", ["-xzf", archive, "-C", unpacked])
                #expect(untar.status == 0, "\(name): \(untar.stderr)")
                #expect(FileManager.default.fileExists(atPath: unpacked + "/events.jsonl"), "\(name) has its events")
                for secret in secrets {
                    for form in Self.forms(of: secret) {
                        let found = try runProcess("/bin/grep", ["-r", "-a", "-l", "-F", form, unpacked])
                        #expect(found.status == 1, "\(name) carries \(form) (\(secret)) in \(found.stdout)")
                    }
                }
            }
        }
    }
}
