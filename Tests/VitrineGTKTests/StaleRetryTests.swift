import CWebKitGTK
import Foundation
import Testing
import Vitrine
@testable import VitrineGTK
import VitrineTestingGTK

extension WebKitTests {
    /// A one-item playlist has no next turn: while its copy is on screen (`stale`) its live
    /// page is tried on a backoff, preloaded or in the view, and replaces the copy once it
    /// loads. Servers are real, stopped and started again on the same port.
    @Suite @MainActor
    struct StaleRetryTests {
        typealias Stale = StaleSnapshotTests

        func native(_ action: ContainerEvent.NativeAction, _ prefix: String = "") -> @Sendable (ContainerEvent) -> Bool {
            { if case let .native(name, detail) = $0 { return name == action && detail.hasPrefix(prefix) }; return false }
        }

        func played(_ item: Int, _ outcome: PlayRecord.Outcome) -> @Sendable (ContainerEvent) -> Bool {
            { if case let .proofOfPlay(record) = $0 { return record.item == item && record.outcome == outcome }; return false }
        }

        func kiosk(_ url: URL, appID: String, preload: Bool) throws -> ContainerFixture {
            var schedule = Schedule(playlist: [PlaylistEntry(url: url, duration: .seconds(60))])
            schedule.preload = preload
            return try ContainerFixture(ConfiguratorFactory.make(for: .kiosk).startURL(url).fullscreen(false)
                .preference(\.applicationID, appID).preference(\.schedule, schedule))
        }

        func beacon(_ fixture: ContainerFixture) async throws -> JSONValue? {
            try await fixture.container.evaluate("document.getElementById('beacon').textContent")
        }

        @Test(arguments: [true, false])
        func aOneItemPlaylistGoesStaleThenLiveAgainByItself(preload: Bool) async throws {
            let appID = KeptCopies.uniqueAppID()
            defer { try? FileManager.default.removeItem(at: KeptCopies.dataFolder(appID)) }
            var server = try LoopbackHTTPServer(pages: ["item.html": Stale.page("v1")])
            defer { server.stop() }
            let url = server.url("item.html")
            let fixture = try kiosk(url, appID: appID, preload: preload)
            defer { fixture.close() }
            fixture.container.start()
            try await fixture.next(where: native(.snapshotSaved, "\(url.absoluteString) "))

            // Down: a reload fails, and the copy takes the page's place.
            server.stop(removingFiles: false)
            fixture.container.reload()
            try await fixture.next(where: native(.schedulePageStale, "0 \(url.absoluteString)"))
            // The live turn closed as the copy went up (just before its line).
            #expect(fixture.log.events.contains(where: played(0, .shown)))
            #expect(await KeptCopies.copyHasLoaded(fixture))
            #expect(try await beacon(fixture) == "v1 content")
            // Tried live and failed: the copy stays.
            try await fixture.next(where: native(.retryLoad, "1 \(url.absoluteString) (backoff)"), timeout: .seconds(10))
            try await fixture.next(where: native(.retry, "2 \(url.absoluteString) in "), timeout: .seconds(10))
            for _ in 0..<3 { try await fixture.roundTrip() }
            #expect(try await beacon(fixture) == "v1 content")
            #expect(try await fixture.container.evaluate("location.protocol") == .string(PageSnapshots.scheme + ":"))

            // Back: live by itself, its stale turn closed.
            server = try KeptCopies.restart(server, with: ["item.html": Stale.page("v2")])
            try await fixture.next(where: native(.recovered, url.absoluteString), timeout: .seconds(30))
            try await fixture.next(where: played(0, .stale))
            #expect(try await beacon(fixture) == "v2 content")
            #expect(try await fixture.container.evaluate("location.href") == .string(url.absoluteString))
            #expect(!fixture.log.events.contains(where: played(0, .failed)))
        }
    }
}
