import Foundation
import Testing
import Vitrine
import VitrineConfigFile

/// A pushed configuration's trial as a value: the start page's HTTP status and the
/// playlist bundles' syncs decide whether it is kept.
@Suite("Config trial: status and bundles")
struct ConfigTrialTests {
    private let start = URL(string: "http://kiosk.example/start.html")!

    private var allowed: ContainerEvent {
        .navigation(url: start.absoluteString, handler: "default-allow", policy: .allow, navigationType: .other,
                    target: .currentView, phase: .request)
    }

    private func finished(_ status: Int?) -> ContainerEvent {
        .load(event: .finished, url: start.absoluteString, error: nil, status: status)
    }

    /// The verdict of a trial that sees the chain allow the start page, then its `finished`.
    private func verdict(status: Int?) -> ConfigTrial.Verdict? {
        var trial = ConfigTrial(startURL: start, timeout: .seconds(5))
        #expect(trial.observe(allowed) == nil)
        #expect(trial.observe(.load(event: .committed, url: start.absoluteString, error: nil)) == nil)
        return trial.observe(finished(status))
    }

    @Test func aStartPageThatAnswers2xxOr3xxOrHasNoStatusIsKept() {
        for status in [200, 204, 304, nil] { #expect(verdict(status: status) == .keep, "\(String(describing: status))") }
    }

    @Test func aStartPageThatAnswers4xxOr5xxRollsBackNamingTheStatus() {
        for status in [404, 403, 500, 503] {
            #expect(verdict(status: status) == .rollBack(reason: "the new start page answered HTTP \(status) (\(start.absoluteString))"))
        }
    }

    @Test func anErrorPageAfterAFailureSettlesNothing() {
        var trial = ConfigTrial(startURL: start, timeout: .seconds(5))
        #expect(trial.observe(allowed) == nil)
        #expect(trial.observe(.load(event: .failed, url: start.absoluteString, error: "refused")) == nil)
        #expect(trial.observe(finished(404)) == nil)
        #expect(trial.observe(finished(nil)) == nil)
    }

    @Test func theAppServersRetried503IsNamedWhenTheTimeIsUp() {
        var trial = ConfigTrial(startURL: start, timeout: .seconds(3))
        #expect(trial.observe(allowed) == nil)
        #expect(trial.observe(.native(action: .loadFailure, detail: LoadFailure.serverUnavailable(status: 503).label)) == nil)
        #expect(trial.observe(.load(event: .failed, url: start.absoluteString, error: "interrupted")) == nil)
        #expect(trial.timedOutVerdict
            == .rollBack(reason: "the new start page \(start.absoluteString) answered HTTP 503 and did not load within 3.0 s"))
        // Another failure's label names no status.
        var refused = ConfigTrial(startURL: start, timeout: .seconds(3))
        _ = refused.observe(.native(action: .loadFailure, detail: LoadFailure.connectionRefused.label))
        #expect(refused.timedOutVerdict == .rollBack(reason: "the new start page \(start.absoluteString) did not load within 3.0 s"))
    }

    @Test func withBundlesThePushIsKeptOnlyOnceEachHasSynced() throws {
        let report = { (outcome: BundleSyncReport.Outcome) in
            ContainerEvent.bundleSync(BundleSyncReport(url: "https://cms.example/a.zip", outcome: outcome, reason: "HTTP 404"))
        }
        var trial = ConfigTrial(startURL: start, timeout: .seconds(5), bundles: 2)
        #expect(trial.observe(report(.updated)) == nil)
        #expect(trial.observe(allowed) == nil)
        #expect(trial.observe(finished(200)) == nil)
        #expect(trial.timedOutVerdict == .rollBack(reason: "1 of the 2 playlist bundles synced within 5.0 s"))
        #expect(trial.observe(report(.unchanged)) == .keep)

        var failing = ConfigTrial(startURL: start, timeout: .seconds(5), bundles: 1)
        #expect(failing.observe(allowed) == nil)
        #expect(failing.observe(report(.failed)) == .rollBack(reason: "the playlist bundle https://cms.example/a.zip did not sync (HTTP 404)"))

        // A pushed file's trial counts its playlist's distinct bundles.
        let pushed = try ConfigFile(text: """
            preset = "kiosk"
            start-url = "https://signage.example/menu"
            [[schedule.playlist]]
            bundle = "https://cms.example/a.zip"
            duration = 30
            [[schedule.playlist]]
            bundle = "https://cms.example/a.zip"
            duration = 10
            [[schedule.playlist]]
            bundle = "https://cms.example/b.zip"
            duration = 10
            """, path: "pushed.toml").configuration()
        #expect(ConfigTrial(of: pushed, timeout: .seconds(5)).bundles == 2)
        #expect(ConfigTrial(of: pushed, timeout: .seconds(5)).startURL == URL(string: "https://signage.example/menu"))
    }

    @Test func aLoadFailureLabelReadsBack() {
        for failure in [LoadFailure.connectionRefused, .hostNotFound, .timedOut, .tls, .network, .serverUnavailable(status: 502)] {
            #expect(LoadFailure(label: failure.label) == failure)
        }
        #expect(LoadFailure(label: "http-x") == nil && LoadFailure(label: "gone") == nil)
    }
}
