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
}
