import CWebKitGTK
import Foundation
import Testing
import Vitrine
@testable import VitrineGTK
import VitrineSigning
import VitrineTestingGTK

extension WebKitTests {
    /// The `update` capability in a real window against a real loopback server that serves
    /// good, tampered, wrong-key, downgrade, oversize and truncated feeds: each refusal reaches
    /// the page with its reason, and only a verified .deb reaches the (stand-in) installer,
    /// with its argument vector as given, never through a shell.
    @Suite @MainActor
    struct UpdateCapabilityTests {
        static let seed = Array(repeating: UInt8(7), count: 32)
        static let otherSeed = Array(repeating: UInt8(9), count: 32)
        static let package = Array("the 1.1.0 package's bytes".utf8)

        static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

        /// update.json for `version`, its deb at `fileURL` of `size` bytes, signed by `seed`.
        static func feed(version: String = "1.1.0", fileURL: URL, size: Int = package.count, signedBy seed: [UInt8] = seed,
                         tamper: Bool = false) throws -> String {
            let manifest = UpdateManifest(appID: "test.vitrine.updates", package: "shop", version: version, channel: "stable",
                                          notes: "Faster checkout",
                                          files: [.deb: UpdateFile(url: fileURL.absoluteString, size: size, sha256: hex(SHA256.hash(package)))])
            let text = manifest.signedText
            let signature = try Ed25519.sign(Array(text.utf8), seed: seed)
            let key = UpdatePublicKey(bytes: try Ed25519.publicKey(seed: seed))!
            return UpdateFeed(manifest: tamper ? text.replacingOccurrences(of: "Faster", with: "Evil") : text,
                              signature: signature, publicKey: key).fileText
        }

        func publish(_ server: BundleServer, _ text: String) throws {
            let file = server.directory.appendingPathComponent("update.json")
            try text.write(to: URL(fileURLWithPath: file.path + ".new"), atomically: false, encoding: .utf8)
            _ = rename(file.path + ".new", file.path)
        }

        @Test func checksInstallsAndRefusesWithTheReason() async throws {
            let server = try BundleServer()
            defer { server.close() }
            try Data(Self.package).write(to: server.directory.appendingPathComponent("shop_1.1.0_amd64.deb"))
            let deb = server.url("shop_1.1.0_amd64.deb")
            let installer = server.directory.appendingPathComponent("installer.sh")
            // The stand-in installer: records its arguments and the file it was handed.
            try "#!/bin/sh\nprintf '%s\\n' \"$@\" >> \"$0.argv\"\ncp \"$3\" \"$0.file\"\n".write(to: installer, atomically: true, encoding: .utf8)
            chmod(installer.path, 0o755)
            try publish(server, Self.feed(fileURL: deb))

            let app = Origin(string: "app://\(WebTestHarness.host)")!
            let key = UpdatePublicKey(bytes: try Ed25519.publicKey(seed: Self.seed))!
            let harness = try WebTestHarness(pages: ["index.html": "<!doctype html><title>shop</title>"], configure: {
                $0.appID("test.vitrine.updates").grantCapabilities([.update], to: app).update {
                    $0.feed = server.url("update.json")
                    $0.publicKey = key
                    $0.checkEvery = .seconds(1)
                    $0.runningVersion = "1.0.0"
                    $0.format = .deb
                    $0.installCommand = [installer.path, "install", "-y"]
                }
            })
            defer {
                harness.close()
                try? FileManager.default.removeItem(at: harness.container.configuration.appDataDirectory)
            }
            try await harness.open("index.html")
            _ = try await harness.container.evaluateAsync("""
                window.heard = [];
                // The fact waited for, with a bound so that a missing event fails rather than hangs.
                window.available = Promise.race([
                    new Promise((resolve) => vitrine.update.on('available', (offer) => resolve('available ' + offer.version))),
                    new Promise((resolve) => setTimeout(() => resolve('no available event'), 20000)),
                ]);
                vitrine.update.on('progress', (p) => heard.push('progress ' + p.received + '/' + p.total));
                return true;
                """)
            func run(_ call: String) async throws -> String {
                let result = try await harness.container.evaluateAsync("""
                    try { return JSON.stringify(await vitrine.update.\(call)()); } catch (e) { return 'refused: ' + e.message; }
                    """)
                return result.stringValue ?? "\(result)"
            }

            // The periodic check tells the page; check() answers the same offer.
            #expect(try await harness.container.evaluateAsync("return await available") == "available 1.1.0")
            let offer = try await run("check")
            #expect(offer.contains("\"version\":\"1.1.0\"") && offer.contains("\"notes\":\"Faster checkout\""), "\(offer)")
            let started = ContinuousClock.now
            #expect(try await run("install") == "true")
            // Download, verification and the installer's run, for the record.
            print("update: install of a \(Self.package.count)-byte .deb, feed to installed: \(ContinuousClock.now - started)")
            let argv = try String(contentsOfFile: installer.path + ".argv", encoding: .utf8).split(separator: "\n")
            #expect(argv.count == 3 && argv[0] == "install" && argv[1] == "-y" && argv[2].hasSuffix("/shop-1.1.0.deb"), "\(argv)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: installer.path + ".file")) == Data(Self.package))
            #expect(!FileManager.default.fileExists(atPath: String(argv[2])), "the verified file is removed once installed")
            #expect((try await harness.container.evaluate("heard.join(',')")).stringValue?.contains("progress \(Self.package.count)/\(Self.package.count)") == true)

            // Two installs at once: one goes on, the other is refused; the installer runs once.
            let both = try await harness.container.evaluateAsync("""
                const results = await Promise.allSettled([vitrine.update.install(), vitrine.update.install()]);
                return results.map((r) => r.status === 'fulfilled' ? String(r.value) : r.reason.message).sort().join(' | ');
                """)
            #expect(both.stringValue == "true | update: an install is already under way", "\(both)")

            try publish(server, Self.feed(fileURL: deb, tamper: true))
            #expect(try await run("check").hasPrefix("refused: update: bad-signature:"))
            try publish(server, Self.feed(fileURL: deb, signedBy: Self.otherSeed))
            #expect(try await run("check").hasPrefix("refused: update: wrong-key:"))
            try publish(server, Self.feed(version: "0.9.0", fileURL: deb))
            #expect(try await run("check") == "null")
            #expect(try await run("install").hasPrefix("refused: update: not-newer: 0.9.0 is not newer than the running 1.0.0"))
            try publish(server, Self.feed(fileURL: deb, size: Self.package.count - 5))
            #expect(try await run("install").hasPrefix("refused: update: oversize:"))
            try publish(server, Self.feed(fileURL: URL(string: deb.absoluteString + "?truncate")!))
            #expect(try await run("install").hasPrefix("refused: update: interrupted:"))
            try publish(server, Self.feed(fileURL: URL(string: "http://example.com/shop_1.1.0_amd64.deb")!))
            #expect(try await run("install").hasPrefix("refused: update: insecure-url:"))
            try publish(server, "garbage")
            #expect(try await run("check").hasPrefix("refused: update: malformed-feed:"))
            // Only the two accepted installs reached the installer.
            #expect(try String(contentsOfFile: installer.path + ".argv", encoding: .utf8).split(separator: "\n").count == 6)
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: harness.container.configuration.appDataDirectory
                .appendingPathComponent("updates").path)
            #expect(leftovers.isEmpty, "refused downloads are removed: \(leftovers)")

            // A frame inside the page is refused, whatever its origin.
            try publish(server, Self.feed(fileURL: deb))
            let framed = try await harness.container.evaluateAsync("""
                const frame = document.createElement('iframe');
                frame.src = 'index.html';
                document.body.append(frame);
                await new Promise((resolve) => frame.onload = resolve);
                try { return JSON.stringify(await frame.contentWindow.vitrine.update.check()); } catch (e) { return 'refused: ' + e.message; }
                """)
            #expect(framed.stringValue?.hasPrefix("refused:") == true, "\(framed)")

            // The periodic check lasts while a window listens.
            let updater = try #require(Updater.shared(for: harness.container.configuration) as Updater?)
            #expect(updater.checksPeriodically)
            harness.container.close()
            #expect(await TestLoop.wait { harness.container.isTornDown })
            #expect(!updater.checksPeriodically)
        }
    }
}
