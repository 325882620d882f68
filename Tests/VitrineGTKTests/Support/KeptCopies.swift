import Foundation
import Testing
import Vitrine
import VitrineTestingGTK

/// The set-up the tests of kept copies share (`PageSnapshotKeeper`, `StartPageCopy`): a data
/// folder of their own, a page served live by a real server and kept as MHTML by a first
/// kiosk, the server then stopped (its files left, so it can come back on the same port) so
/// that the next kiosk boots offline.
@MainActor
enum KeptCopies {
    /// A data folder of its own: the app id names it.
    static func uniqueAppID() -> String {
        "org.vitrine.tests.Stale" + String(UUID().uuidString.filter(\.isLetter).prefix(10))
    }

    /// The data folder of `appID` (remove it when done).
    static func dataFolder(_ appID: String) -> URL { ApplicationID.dataHome.appendingPathComponent(appID) }

    /// The kept copies' folder in it.
    static func folder(_ appID: String) -> URL { PageSnapshots.folder(in: dataFolder(appID)) }

    /// `snapshot-saved` for `url`.
    static func saved(_ url: URL) -> @Sendable (ContainerEvent) -> Bool {
        { if case let .native(.snapshotSaved, detail) = $0 { return detail.hasPrefix("\(url.absoluteString) ") }; return false }
    }

    /// A kept copy finished loading in the view.
    static let copyLoaded: @Sendable (ContainerEvent) -> Bool = {
        if case let .load(.finished, url, _, _, _) = $0 { return url.hasPrefix(PageSnapshots.scheme + "://") }; return false
    }

    /// A playlist item's kept copy went on screen (`schedule-page-stale`).
    static let staleShown: @Sendable (ContainerEvent) -> Bool = {
        if case .native(.schedulePageStale, _) = $0 { return true }; return false
    }

    /// Whether a kept copy's load finished (waiting for it): before its item's
    /// `schedule-page-stale` line where it loads out of sight (preload), after it in the view.
    static func copyHasLoaded(_ fixture: ContainerFixture) async -> Bool {
        await TestLoop.wait(timeout: .seconds(20)) { fixture.log.events.contains(where: copyLoaded) }
    }

    /// Runs the kiosk `makeKiosk` makes until it has kept `url`, closes it, then stops
    /// `server` (when given) with its files left: the next kiosk boots offline. A wait that
    /// times out is reported at the caller's line.
    static func keep(_ url: URL, with makeKiosk: () throws -> ContainerFixture, thenStopping server: LoopbackHTTPServer? = nil,
                     sourceLocation: SourceLocation = #_sourceLocation) async throws {
        do {
            let first = try makeKiosk()
            defer { first.close() }
            first.container.start()
            try await first.next(where: saved(url), sourceLocation: sourceLocation)
        }
        server?.stop(removingFiles: false)
    }

    /// `server` started again on its port and folder, `pages` (file name: text) written first.
    static func restart(_ server: LoopbackHTTPServer, with pages: [String: String] = [:]) throws -> LoopbackHTTPServer {
        try FileManager.default.createDirectory(at: server.directory, withIntermediateDirectories: true)
        for (name, text) in pages {
            try text.write(to: server.directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        return try LoopbackHTTPServer(pages: [:], port: server.port, directory: server.directory)
    }
}
