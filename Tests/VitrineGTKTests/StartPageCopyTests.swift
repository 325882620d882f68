import CWebKitGTK
import Foundation
import Testing
import Vitrine
@testable import VitrineGTK
import VitrineTestingGTK

extension WebKitTests {
    /// A kiosk's start page kept (`StartPageCopy`) and shown, marked `page-stale`, while its
    /// server is down, the live page tried again until it comes back by itself. Servers are
    /// real, stopped and started again on the same port.
    @Suite @MainActor
    struct StartPageCopyTests {
        typealias Stale = StaleSnapshotTests

        func native(_ action: ContainerEvent.NativeAction, _ prefix: String = "") -> @Sendable (ContainerEvent) -> Bool {
            { if case let .native(name, detail) = $0 { return name == action && detail.hasPrefix(prefix) }; return false }
        }

        func kiosk(_ url: URL, appID: String, refusing suffix: String? = nil) throws -> ContainerFixture {
            var configurator = ConfiguratorFactory.make(for: .kiosk).startURL(url).fullscreen(false)
                .preference(\.applicationID, appID)
            if let suffix { configurator = configurator.prependingHandler(BlockingHandler(suffix: suffix)) }
            return try ContainerFixture(configurator)
        }

        /// The server again, on the same port, serving `text`.
        func restart(_ server: LoopbackHTTPServer, serving text: String) throws -> LoopbackHTTPServer {
            try KeptCopies.restart(server, with: ["index.html": Stale.page(text)])
        }

        func beacon(_ fixture: ContainerFixture) async throws -> JSONValue? {
            try await fixture.container.evaluate("document.getElementById('beacon').textContent")
        }

        @Test func theStartPageIsShownFromItsCopyWhileItsServerIsDownThenLiveByItself() async throws {
            let appID = KeptCopies.uniqueAppID()
            defer { try? FileManager.default.removeItem(at: KeptCopies.dataFolder(appID)) }
            var server = try LoopbackHTTPServer(pages: ["index.html": Stale.page("v1")])
            defer { server.stop() }
            let url = server.url("index.html")
            let fixture = try kiosk(url, appID: appID)
            defer { fixture.close() }
            fixture.container.start()
            try await fixture.next(where: native(.snapshotSaved, "\(url.absoluteString) "))

            server.stop(removingFiles: false)
            fixture.container.reload()
            try await fixture.next(where: native(.pageStale, url.absoluteString))
            try await fixture.next(where: KeptCopies.copyLoaded)
            #expect(try await beacon(fixture) == "v1 content")
            #expect(try await fixture.container.evaluate("location.protocol") == .string(PageSnapshots.scheme + ":"))
            // The live page is tried on its backoff; a failed attempt leaves the copy on screen.
            try await fixture.next(where: native(.retryLoad, "1 \(url.absoluteString) (backoff)"), timeout: .seconds(10))
            try await fixture.next(where: native(.retry, "2 \(url.absoluteString) in "), timeout: .seconds(10))
            for _ in 0..<3 { try await fixture.roundTrip() }
            #expect(try await beacon(fixture) == "v1 content")
            #expect(try await fixture.container.evaluate("location.protocol") == .string(PageSnapshots.scheme + ":"))
            #expect(!fixture.log.events.contains { if case .native(.errorPage, _) = $0 { return true }; return false })

            // The server returns: the live page replaces the copy, with nobody reloading it.
            server = try restart(server, serving: "v2")
            try await fixture.next(where: native(.recovered, url.absoluteString), timeout: .seconds(30))
            #expect(try await beacon(fixture) == "v2 content")
            #expect(try await fixture.container.evaluate("location.href") == .string(url.absoluteString))
        }

        @Test func aKioskBootingWithItsServerDownShowsTheCopyThenTheLivePage() async throws {
            let appID = KeptCopies.uniqueAppID()
            defer { try? FileManager.default.removeItem(at: KeptCopies.dataFolder(appID)) }
            var server = try LoopbackHTTPServer(pages: ["index.html": Stale.page("kept")])
            defer { server.stop() }
            let url = server.url("index.html")
            try await KeptCopies.keep(url, with: { try kiosk(url, appID: appID) }, thenStopping: server)

            let fixture = try kiosk(url, appID: appID)
            defer { fixture.close() }
            fixture.container.start()
            try await fixture.next(where: native(.pageStale, url.absoluteString))
            try await fixture.next(where: KeptCopies.copyLoaded)
            #expect(try await beacon(fixture) == "kept content")
            #expect(!fixture.log.events.contains { if case .native(.errorPage, _) = $0 { return true }; return false })
            // The load that failed says it was the live page's; every load of the copy, that it is a kept copy.
            #expect(fixture.log.events.contains { if case .load(.failed, url.absoluteString, _, _, .live) = $0 { return true }; return false })
            let copyLoads = fixture.log.events.compactMap { event -> ContainerEvent.ShownPage? in
                if case let .load(_, loaded, _, _, shown) = event, loaded.hasPrefix(PageSnapshots.scheme + "://") { return shown }
                return nil
            }
            #expect(copyLoads.contains(.snapshot) && copyLoads.allSatisfy { $0 == .snapshot }, "\(copyLoads)")

            server = try restart(server, serving: "live again")
            try await fixture.next(where: native(.recovered, url.absoluteString), timeout: .seconds(30))
            #expect(try await beacon(fixture) == "live again content")
            #expect(fixture.log.events.contains { if case .load(.finished, url.absoluteString, _, _, .live) = $0 { return true }; return false })
        }

        /// Another page of the same site that fails keeps its error page: only the start
        /// page has a copy, and a copy is never shown for another address.
        @Test func anotherPageOfTheSiteFailingShowsTheErrorPageNotTheCopy() async throws {
            let appID = KeptCopies.uniqueAppID()
            defer { try? FileManager.default.removeItem(at: KeptCopies.dataFolder(appID)) }
            let server = try LoopbackHTTPServer(pages: ["index.html": Stale.page("home"), "other.html": Stale.page("other")])
            defer { server.stop() }
            let url = server.url("index.html"), other = server.url("other.html")
            let fixture = try kiosk(url, appID: appID)
            defer { fixture.close() }
            fixture.container.start()
            try await fixture.next(where: native(.snapshotSaved, "\(url.absoluteString) "))
            server.stop(removingFiles: false)
            fixture.container.startLoading(other)
            try await fixture.next(where: native(.errorPage, "network \(other.absoluteString)"))
            #expect(!fixture.log.events.contains { if case .native(.pageStale, _) = $0 { return true }; return false })
        }

        /// A copy of origin A is never shown for origin B's failure, even in the same data folder.
        @Test func aCopyOfOneSiteIsNeverShownForAnothersFailure() async throws {
            let appID = KeptCopies.uniqueAppID()
            defer { try? FileManager.default.removeItem(at: KeptCopies.dataFolder(appID)) }
            let server = try LoopbackHTTPServer(pages: ["index.html": Stale.page("site A")])
            defer { server.stop() }
            let kept = server.url("index.html")
            try await KeptCopies.keep(kept, with: { try kiosk(kept, appID: appID) })
            let other = URL(string: "http://127.0.0.1:\(try freePort())/index.html")!
            let fixture = try kiosk(other, appID: appID)
            defer { fixture.close() }
            fixture.container.start()
            try await fixture.next(where: native(.errorPage, "network \(other.absoluteString)"))
            #expect(!fixture.log.events.contains { if case .native(.pageStale, _) = $0 { return true }; return false })
            #expect(!fixture.log.events.contains(where: KeptCopies.copyLoaded))
        }

        /// The chain refuses the start page (a handler added since it was kept): nothing
        /// loads, so nothing fails and its copy is not shown either.
        @Test func aCopyIsNotShownForAStartPageTheChainRefuses() async throws {
            let appID = KeptCopies.uniqueAppID()
            defer { try? FileManager.default.removeItem(at: KeptCopies.dataFolder(appID)) }
            let server = try LoopbackHTTPServer(pages: ["index.html": Stale.page("refused")])
            defer { server.stop() }
            let url = server.url("index.html")
            try await KeptCopies.keep(url, with: { try kiosk(url, appID: appID) }, thenStopping: server)
            let fixture = try kiosk(url, appID: appID, refusing: "index.html")
            defer { fixture.close() }
            fixture.container.start()
            try await fixture.next(where: {
                if case let .navigation(target, handler, .cancel, _, _, _) = $0 { return target == url.absoluteString && handler == "blocker" }
                return false
            })
            for _ in 0..<5 { try await fixture.roundTrip() }
            #expect(!fixture.log.events.contains { if case .native(.pageStale, _) = $0 { return true }; return false })
            #expect(!fixture.log.events.contains(where: KeptCopies.copyLoaded))
        }

        /// Abuse: the copies' folder replaced by a symlink to a folder holding a valid copy.
        /// The link is not followed: the error page shows.
        @Test func aSymlinkInPlaceOfTheCopiesFolderIsNotFollowed() async throws {
            let appID = KeptCopies.uniqueAppID()
            let elsewhere = FileManager.default.temporaryDirectory.appendingPathComponent("vitrine-copies-\(UUID().uuidString)")
            defer {
                try? FileManager.default.removeItem(at: KeptCopies.dataFolder(appID))
                try? FileManager.default.removeItem(at: elsewhere)
            }
            let server = try LoopbackHTTPServer(pages: ["index.html": Stale.page("planted")])
            defer { server.stop() }
            let url = server.url("index.html")
            try await KeptCopies.keep(url, with: { try kiosk(url, appID: appID) }, thenStopping: server)
            let folder = PageSnapshots.folder(in: KeptCopies.dataFolder(appID))
            try FileManager.default.moveItem(at: folder, to: elsewhere)
            try FileManager.default.createSymbolicLink(at: folder, withDestinationURL: elsewhere)

            let fixture = try kiosk(url, appID: appID)
            defer { fixture.close() }
            fixture.container.start()
            try await fixture.next(where: native(.errorPage, "network \(url.absoluteString)"))
            #expect(!fixture.log.events.contains { if case .native(.pageStale, _) = $0 { return true }; return false })
            #expect(!fixture.log.events.contains(where: KeptCopies.copyLoaded))
        }

        /// An app window (not a kiosk) keeps no copy of its start page: no copies folder.
        @Test func anAppWindowKeepsNoCopy() async throws {
            let appID = KeptCopies.uniqueAppID()
            defer { try? FileManager.default.removeItem(at: KeptCopies.dataFolder(appID)) }
            let server = try LoopbackHTTPServer(pages: ["index.html": Stale.page("app")])
            defer { server.stop() }
            let url = server.url("index.html")
            let fixture = try ContainerFixture(ConfiguratorFactory.make(for: .default).startURL(url)
                .preference(\.applicationID, appID))
            defer { fixture.close() }
            fixture.container.start()
            try await fixture.next(where: { if case let .load(.finished, loaded, _, _, _) = $0 { return loaded == url.absoluteString }; return false })
            for _ in 0..<10 { try await fixture.roundTrip() }
            #expect(!fixture.log.events.contains { if case .native(.snapshotSaved, _) = $0 { return true }; return false })
            #expect(!FileManager.default.fileExists(atPath: PageSnapshots.folder(in: KeptCopies.dataFolder(appID)).path))
        }
    }
}
