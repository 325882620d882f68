import CWebKitGTK
import Foundation
import Testing
import Vitrine
@testable import VitrineGTK
import VitrineTestingGTK

extension WebKitTests.StaleSnapshotTests {
    /// A 50×40 red PNG and a 4×4 blue one.
    static let redPNG = Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAADIAAAAoCAIAAAAzED4bAAAAO0lEQVR4nO3OMQ0AMAwDsPAnvYHokRyWDMB5yaD+QEtLS0tLa0N/oKWlpaWltaE/0NLS0tLS2tAfaJ19187ImtGFuc8AAAAASUVORK5CYII=")!
    static let bluePNG = Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAQAAAAECAIAAAAmkwkpAAAAEElEQVR4nGNgYPiPhIjiAACOsw/xs6MvMwAAAABJRU5ErkJggg==")!

    static let richPage = """
        <!doctype html><html><head><title>rich</title><link rel="stylesheet" href="style.css"></head>
        <body><h1 id="beacon">rich content</h1><img id="picture" src="red.png"><div id="box"></div></body></html>
        """
    static let sheet = "body { background: rgb(0, 128, 0) } #box { width: 8px; height: 8px; background-image: url(\"blue.png\") }"

    /// `data` planted as `item`'s kept copy, as if Vitrine had saved it.
    static func plant(_ data: Data, for item: URL, appID: String) throws {
        let folder = KeptCopies.folder(appID)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try data.write(to: folder.appendingPathComponent(PageSnapshotKeeper.sha256(item.absoluteString) + ".mhtml"))
    }

    /// An MHTML archive of `parts` (type, location, body; bodies base64).
    static func archive(_ parts: [(type: String, location: String, body: Data)]) -> Data {
        var text = "MIME-Version: 1.0\r\nContent-Type: multipart/related; type=\"text/html\"; boundary=\"PART\"\r\n\r\n"
        for part in parts {
            text += "--PART\r\nContent-Type: \(part.type)\r\nContent-Transfer-Encoding: base64\r\n"
                + "Content-Location: \(part.location)\r\n\r\n\(part.body.base64EncodedString(options: .lineLength76Characters))\r\n"
        }
        return Data((text + "--PART--\r\n").utf8)
    }

    /// The kept copy of a page with a style sheet and images shows them from the archive
    /// while the server is down, and is no longer served once the view shows the next item.
    /// (WebKit's own archive loader showed them too: what is new is the serving and its end.)
    @Test func aStaleCopyShowsItsImagesAndStyleFromTheArchive() async throws {
        let appID = KeptCopies.uniqueAppID()
        defer { try? FileManager.default.removeItem(at: KeptCopies.dataFolder(appID)) }
        var server = try LoopbackHTTPServer(pages: ["rich.html": Self.richPage, "style.css": Self.sheet, "other.html": Self.page("other")])
        defer { server.stop() }
        try Self.redPNG.write(to: server.directory.appendingPathComponent("red.png"))
        try Self.bluePNG.write(to: server.directory.appendingPathComponent("blue.png"))
        let item = server.url("rich.html"), other = server.url("other.html")
        let playlist = [PlaylistEntry(url: item, duration: .seconds(4)), PlaylistEntry(url: other, duration: .seconds(60))]
        try await KeptCopies.keep(item, with: { try kiosk(playlist, appID: appID) }, thenStopping: server)

        let fixture = try kiosk(playlist, appID: appID)
        defer { fixture.close() }
        fixture.container.start()
        try await fixture.next(where: native(.schedulePageStale, "0 \(item.absoluteString)"))
        #expect(await KeptCopies.copyHasLoaded(fixture))
        #expect(try await fixture.container.evaluate("document.getElementById('beacon').textContent") == "rich content")
        #expect(try await fixture.container.evaluate("String(document.getElementById('picture').naturalWidth)") == "50")
        #expect(try await fixture.container.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(0, 128, 0)")
        #expect(PageSnapshotScheme.shared.servedViewCount == 1)

        // The next item live: the copy's parts are no longer kept for the view.
        server = try KeptCopies.restart(server)
        try await fixture.next(where: native(.schedulePageShown, "1 \(other.absoluteString)"), timeout: .seconds(30))
        try await fixture.roundTrip()
        #expect(PageSnapshotScheme.shared.servedViewCount == 0)
    }

    /// Abuse: a planted archive whose document has scripts (inline, a handler, one in a
    /// part, one in a frame part), addresses outside the archive, a local file and another
    /// copy's part, shown while its server is up (503). No script runs, no request reaches
    /// the server, no file is read, and the archive's own parts still show.
    @Test func aHostileCopyRunsNoScriptReadsNoFileAndAsksNothingOfTheNetwork() async throws {
        let appID = KeptCopies.uniqueAppID()
        defer { try? FileManager.default.removeItem(at: KeptCopies.dataFolder(appID)) }
        let localImage = FileManager.default.temporaryDirectory.appendingPathComponent("vitrine-local-\(UUID().uuidString).svg")
        try Self.picture.write(to: localImage, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: localImage) }
        let server = try LoopbackHTTPServer(pages: ["MAINTENANCE": "", "maintenance/planted.html": "live"])
        defer { server.stop() }
        let item = server.url("maintenance/planted.html")
        let site = server.url("").absoluteString.dropLast()
        let otherKey = PageSnapshotKeeper.sha256("https://other.example/")
        let document = """
            <!doctype html><html><head><meta charset="utf-8"><title>planted</title>
            <link rel="stylesheet" href="\(site)/style.css"><link rel="stylesheet" href="\(site)/leak.css">
            <script>document.title = "inline ran"</script><script src="\(site)/app.js"></script>
            </head><body onload="document.title = 'handler ran'"><h1 id="beacon">planted content</h1>
            <img id="good" src="\(site)/red.png"><img id="leak" src="\(site)/leak.png"><img id="local" src="\(localImage.absoluteString)">
            <img id="foreign" src="vitrine-snapshot://\(otherKey)/part/1"><img id="broken" src="missing.png" onerror="document.title = 'onerror ran'">
            <iframe src="\(site)/frame.html"></iframe><div style="background-image: url('\(site)/styled.png'); width: 5px; height: 5px"></div>
            </body></html>
            """

        let fixture = try kiosk([PlaylistEntry(url: item, duration: .seconds(60))], appID: appID)
        defer { fixture.close() }
        // Planted once the kiosk is made (it settles where its data folder is).
        try Self.plant(Self.archive([
            ("text/html", item.absoluteString, Data(document.utf8)),
            ("image/png", "\(site)/red.png", Self.redPNG),
            ("text/css", "\(site)/style.css", Data("@import url(\"\(site)/import.css\"); body { background: rgb(0, 0, 128) }".utf8)),
            ("text/javascript", "\(site)/app.js", Data("document.title = 'external ran'; new Image().src = '\(site)/beacon';".utf8)),
            ("text/html", "\(site)/frame.html", Data("<script>parent.document.title = 'frame ran'</script>".utf8)),
            ("image/svg+xml", localImage.absoluteString, Data(Self.picture.utf8)),
        ]), for: item, appID: appID)
        fixture.container.start()
        try await fixture.next(where: native(.schedulePageStale, "0 \(item.absoluteString)"))
        #expect(await KeptCopies.copyHasLoaded(fixture))
        for _ in 0..<5 { try await fixture.roundTrip() }
        #expect(try await fixture.container.evaluate("document.getElementById('beacon').textContent") == "planted content")
        #expect(try await fixture.container.evaluate("document.title") == "planted")
        #expect(try await fixture.container.evaluate("String(document.getElementById('good').naturalWidth)") == "50")
        #expect(try await fixture.container.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(0, 0, 128)")
        for image in ["leak", "local", "foreign"] {
            #expect(try await fixture.container.evaluate("String(document.getElementById('\(image)').naturalWidth)") == "0", "\(image)")
        }
        // The server saw the live page's (503) loads only.
        #expect(server.requestedPaths.allSatisfy { $0 == "/maintenance/planted.html" }, "\(server.requestedPaths)")
    }

    /// Abuse: two kiosks show copies at once; one copy's document names the other's part.
    /// Each view is served its own copy only.
    @Test func aViewIsServedItsOwnCopyOnly() async throws {
        let appID = KeptCopies.uniqueAppID()
        defer { try? FileManager.default.removeItem(at: KeptCopies.dataFolder(appID)) }
        let server = try LoopbackHTTPServer(pages: ["MAINTENANCE": ""])
        defer { server.stop() }
        let first = server.url("maintenance/first.html"), second = server.url("maintenance/second.html")
        let firstPart = "vitrine-snapshot://\(PageSnapshotKeeper.sha256(first.absoluteString))/part/1"
        let one = try kiosk([PlaylistEntry(url: first, duration: .seconds(60))], appID: appID)
        defer { one.close() }
        try Self.plant(Self.archive([("text/html", first.absoluteString, Data("<img id=\"own\" src=\"\(first)/red.png\">".utf8)),
                                     ("image/png", "\(first)/red.png", Self.redPNG)]), for: first, appID: appID)
        try Self.plant(Self.archive([("text/html", second.absoluteString, Data("""
            <img id="own" src="\(second)/red.png"><img id="other" src="\(firstPart)">
            """.utf8)), ("image/png", "\(second)/red.png", Self.redPNG)]), for: second, appID: appID)
        one.container.start()
        try await one.next(where: KeptCopies.staleShown)
        #expect(await KeptCopies.copyHasLoaded(one))
        let two = try kiosk([PlaylistEntry(url: second, duration: .seconds(60))], appID: appID)
        defer { two.close() }
        two.container.start()
        try await two.next(where: KeptCopies.staleShown)
        #expect(await KeptCopies.copyHasLoaded(two))
        #expect(try await two.container.evaluate("String(document.getElementById('own').naturalWidth)") == "50")
        #expect(try await two.container.evaluate("String(document.getElementById('other').naturalWidth)") == "0")
        // Asked again while on screen, a part is still served to its own view.
        #expect(try await one.container.evaluateAsync("""
            const image = new Image(); image.src = "\(firstPart)";
            try { await image.decode(); return String(image.naturalWidth); } catch (e) { return "failed"; }
            """) == "50")
    }

    /// Abuse: kept copies that cannot be shown — garbage, ten thousand parts — are not: the
    /// turn fails as it would with no copy (`snapshot-failed` says why), and the kiosk plays on.
    @Test func anUnusableCopyFallsBackAndTheKioskPlaysOn() async throws {
        let appID = KeptCopies.uniqueAppID()
        defer { try? FileManager.default.removeItem(at: KeptCopies.dataFolder(appID)) }
        let server = try LoopbackHTTPServer(pages: ["MAINTENANCE": "", "live.html": Self.page("live")])
        defer { server.stop() }
        let garbage = server.url("maintenance/garbage.html"), flood = server.url("maintenance/flood.html"), live = server.url("live.html")
        let fixture = try kiosk([PlaylistEntry(url: garbage, duration: .seconds(5)), PlaylistEntry(url: flood, duration: .seconds(5)),
                                 PlaylistEntry(url: live, duration: .seconds(60))], appID: appID)
        defer { fixture.close() }
        try Self.plant(Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919) }), for: garbage, appID: appID)
        try Self.plant(Self.archive([("text/html", flood.absoluteString, Data("<p>flood".utf8))]
            + Array(repeating: ("image/png", "\(flood)/x.png", Self.bluePNG), count: 10000)), for: flood, appID: appID)
        fixture.container.start()
        try await fixture.next(where: native(.snapshotFailed, "\(garbage.absoluteString) the kept copy cannot be shown", prefix: true))
        try await fixture.next(where: native(.snapshotFailed, "\(flood.absoluteString) the kept copy cannot be shown", prefix: true))
        try await fixture.next(where: native(.schedulePageShown, "2 \(live.absoluteString)"))
        #expect(try await fixture.container.evaluate("document.getElementById('beacon').textContent") == "live content")
        for item in [0, 1] { #expect(fixture.log.events.contains(where: played(item, .failed))) }
        #expect(!fixture.log.events.contains(where: KeptCopies.copyLoaded))
    }
}
