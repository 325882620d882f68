import Foundation
import Glibc
import Testing
import Vitrine
import VitrineSigning
import VitrineTestSupport

extension WebKitTests {
    /// A relocatable tarball's update through the built program, from a real loopback server:
    /// 1.0.0 installs 1.1.0 beside itself, swaps the link, starts it and exits once 1.1.0's
    /// page loaded; 1.1.0 then installs a broken 1.2.0, which exits at start, and comes back
    /// by itself: the link swapped back, an events line saying why.
    @Suite
    struct UpdateProgramTests {
        static let seed = Array(repeating: UInt8(5), count: 32)
        static let key = UpdatePublicKey(bytes: try! Ed25519.publicKey(seed: seed))!

        static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

        /// `<parent>/shop-<version>/`: the program (the built vitrine, hard-linked; or a
        /// broken one that exits 3), its version file, vitrine.toml and a page that installs
        /// any newer version it is offered.
        static func appFolder(_ version: String, in parent: URL, vitrine: String, feed: URL, broken: Bool = false) throws {
            let folder = parent.appendingPathComponent("shop-\(version)")
            try FileManager.default.createDirectory(at: folder.appendingPathComponent("web"), withIntermediateDirectories: true)
            let program = folder.appendingPathComponent("shop").path
            if broken {
                try "#!/bin/sh\nexit 3\n".write(toFile: program, atomically: false, encoding: .utf8)
                chmod(program, 0o755)
            } else {
                guard Glibc.link(vitrine, program) == 0 else { throw POSIXError(.EIO) }
            }
            try "\(version)\n".write(to: folder.appendingPathComponent("version"), atomically: false, encoding: .utf8)
            try """
                app-id = "test.vitrine.tarball"
                app-dir = "web"
                title = "Shop"
                [update]
                feed = "\(feed.absoluteString)"
                public-key = "\(key)"
                check-every = 0
                [capabilities]
                "app://app" = ["update"]
                """.write(to: folder.appendingPathComponent("vitrine.toml"), atomically: false, encoding: .utf8)
            try """
                <!doctype html><title>\(version)</title><script>
                // What the page heard reaches the test as the page's error report.
                vitrine.update.on('rolled-back', (r) => setTimeout(() => { throw new Error('rolled back: ' + r.reason); }));
                vitrine.update.check().then((offer) => offer && vitrine.update.install()).catch((e) => { document.title = e.message; });
                </script>
                """.write(to: folder.appendingPathComponent("web/index.html"), atomically: false, encoding: .utf8)
        }

        /// Packs `shop-<version>/` as `vitrine bundle` does and publishes it with its signed feed.
        static func release(_ version: String, server: BundleServer, stage: URL, vitrine: String, broken: Bool = false) throws {
            try appFolder(version, in: stage, vitrine: vitrine, feed: server.url("update.json"), broken: broken)
            let name = "shop-\(version).tar.gz"
            let tarball = server.directory.appendingPathComponent(name)
            let packed = try runProcess("/usr/bin/tar", ["-czf", tarball.path, "-C", stage.path, "shop-\(version)"], timeout: 120)
            try #require(packed.status == 0, "\(packed.stderr)")
            let bytes = try Data(contentsOf: tarball)
            let manifest = UpdateManifest(appID: "test.vitrine.tarball", package: "shop", version: version, channel: "stable", notes: "",
                                          files: [.tarball: UpdateFile(url: server.url(name).absoluteString, size: bytes.count,
                                                                       sha256: hex(SHA256.hash(Array(bytes))))])
            let text = manifest.signedText
            let feed = UpdateFeed(manifest: text, signature: try Ed25519.sign(Array(text.utf8), seed: seed), publicKey: key)
            try feed.fileText.write(to: server.directory.appendingPathComponent("update.json"), atomically: true, encoding: .utf8)
        }

        static func linkTarget(_ path: URL) -> String? {
            try? FileManager.default.destinationOfSymbolicLink(atPath: path.path)
        }

        /// Ends a process this test did not start (the handed-over version), and waits for it to go.
        static func end(pid: Int32) {
            kill(pid, SIGTERM)
            let deadline = Date().addingTimeInterval(15)
            while Date() < deadline {
                let state = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8))?.split(separator: " ").dropFirst(2).first
                if state == nil || state == "Z" { return }
                usleep(50_000)
            }
            kill(pid, SIGKILL)
        }

        @Test func aTarballUpdateHandsOverAndABrokenOneRollsBack() throws {
            let vitrine = try BuiltProducts.path("vitrine")
            // Beside the built program: its hard links stay on one file system.
            let root = URL(fileURLWithPath: vitrine).deletingLastPathComponent().appendingPathComponent("vitrine-update-\(UUID().uuidString.prefix(8))")
            let apps = root.appendingPathComponent("apps"), stage = root.appendingPathComponent("stage")
            for folder in [apps, stage] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
            defer { try? FileManager.default.removeItem(at: root) }
            let server = try BundleServer()
            defer { server.close() }
            var environment = ProgramRun.environment(dataHome: root.appendingPathComponent("data").path)
            environment["VITRINE_RESOURCES"] = Documentation.root.appendingPathComponent("Resources").path

            try Self.appFolder("1.0.0", in: apps, vitrine: vitrine, feed: server.url("update.json"))
            try FileManager.default.createDirectory(at: apps.appendingPathComponent("shop-0.9.0"), withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: apps.appendingPathComponent("shop").path, withDestinationPath: "shop-1.0.0")
            try Self.release("1.1.0", server: server, stage: stage, vitrine: vitrine)
            let program = apps.appendingPathComponent("shop/shop").path
            let config = apps.appendingPathComponent("shop/vitrine.toml").path

            // 1.0.0 installs 1.1.0, which loads its page; then 1.0.0 exits.
            let first = try ProgramRun(["--config", config, "--no-fullscreen", "--events", root.appendingPathComponent("first.jsonl").path],
                                       environment: environment, executable: program)
            defer { first.kill() }
            let installed = first.waitForEvent(timeout: 90) { $0["action"] as? String == "update-installed" }
            let detail = installed?["detail"] as? String ?? ""
            try #require(installed != nil, "\(first.events)\n\(first.standardError.suffix(3000))")
            print("update: tarball \(detail) (download, verification, unpacking and the new version's page)")
            let pid = Int32(detail.split(separator: " ").last ?? "") ?? 0
            defer { if pid > 0 { Self.end(pid: pid) } }
            #expect(detail.hasPrefix("1.1.0 in ") && pid > 0, "\(detail)")
            #expect(first.waitForExit(timeout: 30) && first.process.terminationStatus == 0, "the old version exits once the new one loaded")
            #expect(Self.linkTarget(apps.appendingPathComponent("shop")) == "shop-1.1.0")
            #expect(pid > 0 && (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")) == apps.appendingPathComponent("shop-1.1.0/shop").resolvingSymlinksInPath().path,
                    "the new process runs the new folder's program")
            #expect(FileManager.default.fileExists(atPath: apps.appendingPathComponent("shop-1.0.0/shop").path), "the previous version is kept")
            #expect(!FileManager.default.fileExists(atPath: apps.appendingPathComponent("shop-0.9.0").path), "older ones go after a success")
            if pid > 0 { Self.end(pid: pid) }

            // 1.1.0 installs a broken 1.2.0 (it exits at start): 1.1.0 comes back by itself.
            try Self.release("1.2.0", server: server, stage: stage, vitrine: vitrine, broken: true)
            let second = try ProgramRun(["--config", config, "--no-fullscreen", "--events", root.appendingPathComponent("second.jsonl").path],
                                        environment: environment, executable: program)
            defer { second.kill() }
            let rolledBack = second.waitForEvent(timeout: 90) { $0["action"] as? String == "update-rolled-back" }
            #expect((rolledBack?["detail"] as? String)?.hasPrefix("1.2.0: the new version exited (status 3) before its page loaded") == true,
                    "\(second.events)\n\(second.standardError.suffix(3000))")
            #expect(second.isRunning, "the running version stays")
            #expect(Self.linkTarget(apps.appendingPathComponent("shop")) == "shop-1.1.0")
            #expect(!FileManager.default.fileExists(atPath: apps.appendingPathComponent("shop-1.2.0").path))
            let reports = root.appendingPathComponent("data/test.vitrine.tarball/reports/reports.jsonl").path
            #expect(FactWait(watching: [reports]).wait(timeout: 20) {
                FileSystem.contents(of: reports)?.contains("rolled back: 1.2.0: the new version exited (status 3)") == true
            }, "the page hears why")
        }
    }
}
