import CWebKitGTK
import Foundation
import Testing
import Vitrine
@testable import VitrineGTK
import VitrineTestingGTK

extension WebKitTests {
    /// A playlist page's last good load (`PageSnapshotKeeper`) in a real window: kept as
    /// MHTML after the page loaded, shown as `stale` while its server is down, and replaced
    /// by the live page once the server is back; a kiosk started with the server down shows
    /// it too. Servers are real and stopped for real.
    @Suite @MainActor
    struct StaleSnapshotTests {
        static func page(_ text: String) -> String {
            """
            <!doctype html><title>\(text)</title><body style="background:#246">
            <h1 id="beacon">\(text) content</h1>
            <script>document.body.dataset.bridge = window.vitrine ? "present" : "absent";</script>
            """
        }

        /// The `storage` capability, from the page on screen.
        static let picture = #"<svg xmlns="http://www.w3.org/2000/svg" width="40" height="30"><rect width="40" height="30"/></svg>"#

        static let storageProbe = """
            if (!window.vitrine) return "no bridge";
            try { await vitrine.storage.set("probe", 1); return "stored"; } catch (e) { return "refused: " + e.message; }
            """

        func native(_ action: ContainerEvent.NativeAction, _ detail: String? = nil, prefix: Bool = false) -> @Sendable (ContainerEvent) -> Bool {
            { event in
                guard case let .native(name, text) = event, name == action else { return false }
                guard let detail else { return true }
                return prefix ? text.hasPrefix(detail) : text == detail
            }
        }

        func played(_ item: Int, _ outcome: PlayRecord.Outcome) -> @Sendable (ContainerEvent) -> Bool {
            { if case let .proofOfPlay(record) = $0 { return record.item == item && record.outcome == outcome }; return false }
        }

        /// The live site is granted `storage`: its snapshot must not be.
        func kiosk(_ playlist: [PlaylistEntry], appID: String) throws -> ContainerFixture {
            try ContainerFixture(ConfiguratorFactory.make(for: .kiosk).startURL(playlist[0].url).fullscreen(false)
                .grantCapabilities([.storage], to: try #require(Origin(playlist[0].url)))
                .preference(\.applicationID, appID)
                .preference(\.schedule, Schedule(playlist: playlist)))
        }

        @Test func aPageWhoseServerStopsIsShownStaleThenLiveAgain() async throws {
            let appID = KeptCopies.uniqueAppID()
            defer { try? FileManager.default.removeItem(at: KeptCopies.dataFolder(appID)) }
            // One server for both items: the kiosk's allow-list is the start page's origin.
            var live = try LoopbackHTTPServer(pages: ["live.html": Self.page("live v1"), "other.html": Self.page("other")])
            defer { live.stop() }
            let item = live.url("live.html"), other = live.url("other.html")
            let fixture = try kiosk([PlaylistEntry(url: item, duration: .milliseconds(1500)),
                                     PlaylistEntry(url: other, duration: .milliseconds(1500))], appID: appID)
            defer { fixture.close() }
            fixture.container.start()

            try await fixture.next(where: native(.snapshotSaved, "\(item.absoluteString) ", prefix: true))
            let file = KeptCopies.folder(appID).appendingPathComponent(PageSnapshotKeeper.sha256(item.absoluteString) + ".mhtml")
            #expect(try String(contentsOf: file, encoding: .utf8).contains("live v1 content"))

            // The server goes while the other item is on screen.
            try await fixture.next(where: native(.schedulePageShown, "1 \(other.absoluteString)"))
            live.stop(removingFiles: false)
            try await fixture.next(where: native(.schedulePageFailed, "0 \(item.absoluteString)"))
            try await fixture.next(where: native(.schedulePageStale, "0 \(item.absoluteString)"))
            #expect(await KeptCopies.copyHasLoaded(fixture))
            #expect(try await fixture.container.evaluate("document.getElementById('beacon').textContent") == "live v1 content")
            // Its own origin, not the live site's: no bridge, none of the site's grants.
            #expect(try await fixture.container.evaluate("location.protocol") == .string(PageSnapshots.scheme + ":"))
            // The page's own scripts do not run in an archive (no inline script marked it).
            #expect(try await fixture.container.evaluate("String(document.querySelectorAll('script').length)") == "0")
            // Even called from the page's world, the bridge refuses the live site's grant.
            #expect(try await fixture.container.evaluateAsync(Self.storageProbe) != "stored")
            // Proof of play: the stale turn, never a failed one (the other item, kept too, is stale as well).
            try await fixture.next(where: played(0, .stale))
            #expect(!fixture.log.events.contains { if case let .proofOfPlay(record) = $0 { return record.outcome == .failed }; return false })

            // The server comes back: the next turn is live.
            live = try KeptCopies.restart(live, with: ["live.html": Self.page("live v2")])
            try await fixture.next(where: native(.schedulePageShown, "0 \(item.absoluteString)"), timeout: .seconds(30))
            #expect(try await fixture.container.evaluate("document.getElementById('beacon').textContent") == "live v2 content")
            #expect(try await fixture.container.evaluateAsync(Self.storageProbe) == "stored")
            try await fixture.next(where: played(0, .shown))
        }

        @Test func aKioskStartedWithItsServerDownShowsTheSnapshot() async throws {
            let appID = KeptCopies.uniqueAppID()
            defer { try? FileManager.default.removeItem(at: KeptCopies.dataFolder(appID)) }
            let server = try LoopbackHTTPServer(pages: ["live.html": Self.page("kept")])
            defer { server.stop() }
            let item = server.url("live.html")
            let playlist = [PlaylistEntry(url: item, duration: .seconds(60))]
            try await KeptCopies.keep(item, with: { try kiosk(playlist, appID: appID) }, thenStopping: server)

            let fixture = try kiosk(playlist, appID: appID)
            defer { fixture.close() }
            fixture.container.start()
            try await fixture.next(where: native(.schedulePageStale, "0 \(item.absoluteString)"))
            #expect(await KeptCopies.copyHasLoaded(fixture))
            #expect(try await fixture.container.evaluate("document.getElementById('beacon').textContent") == "kept content")
        }

        /// Abuse: the live page (or a frame in it) opens a snapshot address itself, the
        /// snapshot of its own page included. Nothing loads: only Vitrine shows a snapshot.
        @Test func aPageCannotOpenASnapshotAddress() async throws {
            let appID = KeptCopies.uniqueAppID()
            defer { try? FileManager.default.removeItem(at: KeptCopies.dataFolder(appID)) }
            let server = try LoopbackHTTPServer(pages: ["live.html": Self.page("live")])
            defer { server.stop() }
            let item = server.url("live.html")
            let fixture = try kiosk([PlaylistEntry(url: item, duration: .seconds(60))], appID: appID)
            defer { fixture.close() }
            fixture.container.start()
            try await fixture.next(where: native(.snapshotSaved, "\(item.absoluteString) ", prefix: true))
            let address = PageSnapshots.scheme + "://" + PageSnapshotKeeper.sha256(item.absoluteString) + "/"
            _ = try await fixture.container.evaluate("""
                const frame = document.createElement("iframe"); frame.src = "\(address)"; document.body.append(frame);
                window.open("\(address)"); location.href = "\(address)"; "sent"
                """)
            for _ in 0..<5 { try await fixture.roundTrip() }
            #expect(try await fixture.container.evaluate("document.getElementById('beacon').textContent") == "live content")
            #expect(try await fixture.container.evaluate("location.href") == .string(item.absoluteString))
            #expect(!fixture.log.events.contains {
                if case let .load(_, url, _, _, _) = $0 { return url.hasPrefix(PageSnapshots.scheme) }; return false
            })
            #expect(!fixture.log.events.contains {
                if case let .navigation(url, _, .allow, _, _, _) = $0 { return url.hasPrefix(PageSnapshots.scheme) }; return false
            })
        }

        /// Only a good load is kept: a page its server answers 404 for is shown (it loaded)
        /// but never becomes a snapshot, so a later failure shows no error page as content.
        @Test func aPageAnsweredWithAnErrorIsNotKept() async throws {
            let appID = KeptCopies.uniqueAppID()
            defer { try? FileManager.default.removeItem(at: KeptCopies.dataFolder(appID)) }
            let server = try LoopbackHTTPServer(pages: ["good.html": Self.page("good")])
            defer { server.stop() }
            let missing = server.url("missing.html"), good = server.url("good.html")
            let fixture = try kiosk([PlaylistEntry(url: missing, duration: .milliseconds(800)),
                                     PlaylistEntry(url: good, duration: .seconds(60))], appID: appID)
            defer { fixture.close() }
            fixture.container.start()
            try await fixture.next(where: native(.schedulePageShown, "0 \(missing.absoluteString)"))
            // Saves run in order in the web process: once the good page's is done, a save
            // of the 404 page would have been too.
            try await fixture.next(where: native(.snapshotSaved, "\(good.absoluteString) ", prefix: true))
            #expect(!fixture.log.events.contains {
                if case let .native(.snapshotSaved, detail) = $0 { return detail.hasPrefix(missing.absoluteString) }; return false
            })
            let folder = KeptCopies.folder(appID)
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path)
                == [PageSnapshotKeeper.sha256(good.absoluteString) + ".mhtml"])
        }

        /// Abuse: the live page puts a local file in its document before it is kept. The
        /// snapshot is a local document (WebKit loads archives only from local schemes), so
        /// its policy refuses anything but the archive's http(s) parts: the file stays off
        /// screen, and the snapshot still loads.
        @Test func aSnapshotShowsNoLocalFileThePagePutInIt() async throws {
            let appID = KeptCopies.uniqueAppID()
            defer { try? FileManager.default.removeItem(at: KeptCopies.dataFolder(appID)) }
            let localImage = FileManager.default.temporaryDirectory.appendingPathComponent("vitrine-local-\(UUID().uuidString).svg")
            try Self.picture.write(to: localImage, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(at: localImage) }
            let page = Self.page("planted") + "<img id=\"picture\" src=\"\(localImage.absoluteString)\">"
            let server = try LoopbackHTTPServer(pages: ["live.html": page])
            defer { server.stop() }
            let item = server.url("live.html")
            let playlist = [PlaylistEntry(url: item, duration: .seconds(60))]
            try await KeptCopies.keep(item, with: { try kiosk(playlist, appID: appID) }, thenStopping: server)
            let fixture = try kiosk(playlist, appID: appID)
            defer { fixture.close() }
            fixture.container.start()
            try await fixture.next(where: KeptCopies.staleShown)
            #expect(await KeptCopies.copyHasLoaded(fixture))
            #expect(try await fixture.container.evaluate("document.getElementById('beacon').textContent") == "planted content")
            #expect(try await fixture.container.evaluate("String(document.getElementById('picture').naturalWidth)") == "0")
        }
    }
}
