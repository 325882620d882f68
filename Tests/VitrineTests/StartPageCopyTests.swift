import Foundation
import Testing
import Vitrine

/// Which windows keep their start page, and for which failures its copy stands in.
@Suite struct StartPageCopyTests {
    let start = URL(string: "https://kiosk.example/board")!

    func make(kiosk: Bool = true, start: URL? = URL(string: "https://kiosk.example/board")!, playlist: Bool = false,
              zones: Bool = false, tabs: Bool = false, errorPages: Bool = true) -> StartPageCopy? {
        StartPageCopy(kiosk: kiosk, startURL: start, hasPlaylist: playlist, hasZones: zones, hasTabs: tabs, showsErrorPages: errorPages)
    }

    @Test func onlyAKioskWithAnHTTPStartPageAndNoPlaylistKeepsOne() throws {
        #expect(make()?.startURL == start)
        #expect(make(start: URL(string: "http://10.0.0.5:8080/")!) != nil)
        #expect(make(kiosk: false) == nil)
        #expect(make(start: nil) == nil)
        #expect(make(playlist: true) == nil)
        #expect(make(zones: true) == nil)
        #expect(make(tabs: true) == nil)
        #expect(make(errorPages: false) == nil)
        for other in ["file:///srv/board.html", "app://app/index.html", "data:text/html,x", "about:blank"] {
            #expect(make(start: URL(string: other)!) == nil, "\(other)")
        }
    }

    @Test func fromAConfigurationTheKioskPresetKeepsItsStartPageAndAnAppWindowDoesNot() throws {
        let kiosk = try ConfiguratorFactory.make(for: .kiosk).startURL(start).build()
        #expect(StartPageCopy(kiosk)?.startURL == start)
        let app = try ConfiguratorFactory.make(for: .default).startURL(start).build()
        #expect(StartPageCopy(app) == nil)
        let signage = try ConfiguratorFactory.make(for: .kiosk).startURL(start)
            .preference(\.schedule, Schedule(playlist: [PlaylistEntry(url: start, duration: .seconds(10))])).build()
        #expect(StartPageCopy(signage) == nil)
    }

    @Test func theCopyStandsInForTheStartPageOnlyAndNotForATLSFailure() throws {
        let copy = try #require(make())
        #expect(copy.keeps(start))
        #expect(copy.keeps(URL(string: "https://KIOSK.example:443/board#top")!))
        for failure in [LoadFailure.connectionRefused, .hostNotFound, .timedOut, .network, .serverUnavailable(status: 503)] {
            #expect(copy.standsIn(for: start, because: failure), "\(failure)")
        }
        #expect(!copy.standsIn(for: start, because: .tls))
        // Another page of the site, another site, the same path elsewhere: never.
        for other in ["https://kiosk.example/board?x=1", "https://kiosk.example/other", "http://kiosk.example/board",
                      "https://evil.example/board", "https://kiosk.example:8443/board"] {
            #expect(!copy.standsIn(for: URL(string: other)!, because: .network), "\(other)")
            #expect(!copy.keeps(URL(string: other)!), "\(other)")
        }
    }
}
