import Foundation
import Testing
import Vitrine

/// When a page that could not be shown is tried again, and which responses count as
/// "not there yet": values, without a display.
@Suite("Load retries decided in the core")
struct LoadRetryTests {
    private func schedule(random: Double) -> RetrySchedule {
        RetrySchedule(random: { random })
    }

    @Test func theFirstRetryIsWithinTwoSecondsAndTheDelayDoublesUpToTheCap() {
        var middle = schedule(random: 0.5) // no jitter either way
        let delays = (1...9).map { _ in middle.failed() }
        #expect(delays == [1, 2, 4, 8, 16, 32, 60, 60, 60].map { Duration.seconds($0) })
        #expect(middle.attempts == 9)
        var highest = schedule(random: 0.999_999)
        #expect(highest.failed() <= .seconds(2))
        for _ in 0..<20 { #expect(highest.failed() <= .seconds(60), "capped, jitter included") }
    }

    @Test func theJitterComesFromTheInjectedSourceBothWays() {
        var low = schedule(random: 0)
        var high = schedule(random: 0.999_999_999)
        _ = (low.failed(), high.failed())
        #expect(low.failed() == .milliseconds(1500))
        let second = high.failed()
        #expect(second > .milliseconds(2499) && second <= .milliseconds(2500))
    }

    @Test func aSuccessStartsTheScheduleAgain() {
        var retry = schedule(random: 0.5)
        _ = (retry.failed(), retry.failed(), retry.failed())
        retry.succeeded()
        #expect(retry.attempts == 0)
        #expect(retry.failed() == .seconds(1))
    }

    @Test func onlyTheAppsOwnServerBeingUnavailableCountsAsAFailure() throws {
        let app = try #require(URL(string: "https://kiosk.example.com/index.html"))
        let other = try #require(URL(string: "https://elsewhere.example.com/index.html"))
        let origins: Set<Origin> = [try #require(Origin(app))]
        func response(_ status: Int, mainFrame: Bool = true) -> NavigationResponse {
            NavigationResponse(mimeType: "text/html", statusCode: status, canShowMIMEType: true, isMainFrame: mainFrame)
        }
        for status in [502, 503, 504] {
            #expect(LoadFailure.serverUnavailable(response(status), for: app, appOrigins: origins) == .serverUnavailable(status: status))
            #expect(LoadFailure.serverUnavailable(response(status), for: other, appOrigins: origins) == nil, "another site's page")
            #expect(LoadFailure.serverUnavailable(response(status, mainFrame: false), for: app, appOrigins: origins) == nil)
        }
        for status in [200, 404, 500, 501] {
            #expect(LoadFailure.serverUnavailable(response(status), for: app, appOrigins: origins) == nil)
        }
        #expect(LoadFailure.serverUnavailable(status: 503).label == "http-503")
    }

    @Test func anAllowedUnavailableResponseFromTheAppIsRetriedUnlessErrorPagesAreOff() throws {
        let app = try #require(URL(string: "https://kiosk.example.com/index.html"))
        let action = NavigationAction(url: app, phase: .response(NavigationResponse(
            mimeType: "text/html", statusCode: 503, canShowMIMEType: true, isMainFrame: true)))
        let allow = NavigationDecision(policy: .allow, handler: "test")
        let kiosk = try Configurator().startURL(app).build()
        #expect(kiosk.outcome(of: allow, for: action) == .retryLater(.serverUnavailable(status: 503)))
        #expect(kiosk.outcome(of: NavigationDecision(policy: .cancel, handler: "test"), for: action) == .answer(.cancel))
        let plain = try Configurator().startURL(app).showsErrorPages(false).build()
        #expect(plain.outcome(of: allow, for: action) == .answer(.allow))
    }

    @Test func waitsAreShownInWholeSecondsRoundedUp() {
        #expect(Duration.seconds(1).wholeSecondsRoundedUp == 1)
        #expect(Duration.milliseconds(1250).wholeSecondsRoundedUp == 2)
        #expect(Duration.milliseconds(750).wholeSecondsRoundedUp == 1)
    }

    /// The window's page and a stale playlist item are retried by one `LoadRetrier`, whose
    /// lines these are: the same format for both, only the reason differs.
    @Test func theStartPagesAndAStaleItemsRetriesAreLoggedInOneFormat() throws {
        let url = try #require(URL(string: "https://kiosk.example.com/index.html?a=1"))
        // The start page: its load failed, by name.
        #expect(ContainerEvent.retry(1, of: url, in: .milliseconds(1250), because: .failed(.connectionRefused))
            == .native(action: .retry, detail: "1 https://kiosk.example.com/index.html?a=1 in 1.3 s (connection-refused)"))
        #expect(ContainerEvent.retry(4, of: url, in: .seconds(60), because: .failed(.serverUnavailable(status: 503)))
            == .native(action: .retry, detail: "4 https://kiosk.example.com/index.html?a=1 in 60.0 s (http-503)"))
        // A playlist item whose kept copy is on screen.
        #expect(ContainerEvent.retry(2, of: url, in: .milliseconds(1940), because: .stale)
            == .native(action: .retry, detail: "2 https://kiosk.example.com/index.html?a=1 in 1.9 s (stale)"))
        #expect(ContainerEvent.retryLoad(2, of: url, trigger: .backoff)
            == .native(action: .retryLoad, detail: "2 https://kiosk.example.com/index.html?a=1 (backoff)"))
        #expect(ContainerEvent.retryLoad(3, of: url, trigger: .network)
            == .native(action: .retryLoad, detail: "3 https://kiosk.example.com/index.html?a=1 (network)"))
        #expect(ContainerEvent.recovered(url) == .native(action: .recovered, detail: "https://kiosk.example.com/index.html?a=1"))
        // Every failure keeps its own label; only `stale` is the playlist's.
        let failures: [LoadFailure] = [.connectionRefused, .hostNotFound, .timedOut, .tls, .serverUnavailable(status: 502), .network]
        for failure in failures { #expect(RetryReason.failed(failure).label == failure.label) }
        #expect(!failures.map(\.label).contains(RetryReason.stale.label))
    }
}
