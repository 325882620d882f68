import Testing
import Vitrine

/// The start-up trace keeps each phase's first moment, in the order reached, on a clock
/// that only goes forward, and its event line says the phase and the time.
@Suite("Start-up trace")
struct StartupTraceTests {
    @Test func eachPhaseIsMarkedOnceAtItsFirstMoment() throws {
        let trace = StartupTrace()
        let first = try #require(trace.mark(.firstView, at: 10))
        #expect(trace.mark(.loadStarted, at: 12) != nil)
        // A later window's view is not the start's.
        #expect(trace.mark(.firstView, at: 20) == nil)
        #expect(trace.reached == [first, StartupTrace.Mark(phase: .loadStarted, monotonic: 12)])
    }

    @Test func theClockGoesForward() {
        let trace = StartupTrace()
        trace.mark(.processStart)
        trace.mark(.optionsParsed)
        let times = trace.reached.map(\.monotonic)
        #expect(times.count == 2 && times[0] > 0 && times[1] >= times[0])
    }

    @Test func theFirstPageLoadsEventsMarkTheirPhases() {
        #expect(StartupPhase(firstLoad: .started) == .loadStarted)
        #expect(StartupPhase(firstLoad: .committed) == .loadCommitted)
        #expect(StartupPhase(firstLoad: .finished) == .loadFinished)
        #expect(StartupPhase(firstLoad: .failed) == nil)
    }

    @Test func aMarkIsALineWithItsPhaseAndTime() {
        let line = ContainerEvent.startup(StartupTrace.Mark(phase: .webContext, monotonic: 1234.5)).json
        #expect(line["type"]?.stringValue == "startup")
        #expect(line["phase"]?.stringValue == "web-context")
        #expect(line["monotonic"] == .number(1234.5))
    }
}
