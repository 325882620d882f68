import Testing
import Vitrine

/// systemd's notify protocol as values: what the environment says, the datagrams' text,
/// and when the service is ready (display-free; the program's own test sends them).
@Suite("systemd notify")
struct ServiceNotifyTests {
    @Test func theEnvironmentGivesTheSocketAndHalfTheWatchdogTimeout() throws {
        let plain = try #require(ServiceManagerEnvironment(["NOTIFY_SOCKET": "/run/systemd/notify", "WATCHDOG_USEC": "30000000"],
                                                           processID: 42))
        #expect(plain.socketPath == "/run/systemd/notify" && !plain.isAbstract)
        #expect(plain.pingInterval == .seconds(15))
        let abstract = try #require(ServiceManagerEnvironment(["NOTIFY_SOCKET": "@vitrine/notify", "WATCHDOG_USEC": "3000000",
                                                               "WATCHDOG_PID": "42"], processID: 42))
        #expect(abstract.socketPath == "vitrine/notify" && abstract.isAbstract && abstract.pingInterval == .milliseconds(1500))
        // The watchdog of another process (the unit's main process when Vitrine is its child).
        #expect(ServiceManagerEnvironment(["NOTIFY_SOCKET": "/n", "WATCHDOG_USEC": "3000000", "WATCHDOG_PID": "7"],
                                          processID: 42)?.pingInterval == nil)
        #expect(ServiceManagerEnvironment(["NOTIFY_SOCKET": "/n", "WATCHDOG_USEC": "soon"], processID: 42)?.pingInterval == nil)
        #expect(ServiceManagerEnvironment(["NOTIFY_SOCKET": "/n", "WATCHDOG_USEC": "0"], processID: 42)?.pingInterval == nil)
        // No socket, a relative one, a bare '@', or one too long for sockaddr_un: not a notify service.
        for socket in [nil, "relative/notify", "@", "", "/" + String(repeating: "x", count: 107)] {
            #expect(ServiceManagerEnvironment(socket.map { ["NOTIFY_SOCKET": $0] } ?? [:], processID: 42) == nil, "\(socket ?? "nil")")
        }
        #expect(ServiceManagerEnvironment.variables == ["NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID"])
    }

    @Test func datagramsAreAssignmentsAndAStatusStaysOneLine() {
        #expect(ServiceNotification.ready(status: "Showing https://a.test/").datagram == "READY=1\nSTATUS=Showing https://a.test/")
        #expect(ServiceNotification.watchdog.datagram == "WATCHDOG=1")
        #expect(ServiceNotification.stopping.datagram == "STOPPING=1")
        // A page's URL cannot add an assignment of its own.
        #expect(ServiceNotification.status("Showing x\nREADY=1\rSTOPPING=1").datagram == "STATUS=Showing x READY=1 STOPPING=1")
        #expect(ServiceNotification.status(String(repeating: "a", count: 5000)).datagram.count == "STATUS=".count + 400)
    }

    @Test func readyOnceTheFirstPageIsShownThenTheStatusFollowsThePage() {
        var readiness = ServiceReadiness()
        #expect(readiness.record(.load(event: .started, url: "https://a.test/", error: nil)).isEmpty)
        #expect(readiness.record(.load(event: .committed, url: "https://a.test/", error: nil)).isEmpty)
        #expect(readiness.record(.load(event: .finished, url: "https://a.test/", error: nil)) == [.ready(status: "Showing https://a.test/")])
        #expect(readiness.record(.load(event: .started, url: "https://a.test/b", error: nil)).isEmpty)
        #expect(readiness.record(.load(event: .finished, url: "https://a.test/b", error: nil)) == [.status("Showing https://a.test/b")])
    }

    /// A first load that fails is not a page shown; the error page that replaces it is.
    @Test func aFailedFirstLoadIsReadyOnlyWithItsErrorPage() {
        var readiness = ServiceReadiness()
        _ = readiness.record(.load(event: .started, url: "https://down.test/", error: nil))
        #expect(readiness.record(.load(event: .failed, url: "https://down.test/", error: "refused")).isEmpty)
        #expect(readiness.record(.load(event: .finished, url: "https://down.test/", error: nil)).isEmpty)
        #expect(readiness.record(.native(action: .errorPage, detail: "connection-refused https://down.test/")).isEmpty)
        _ = readiness.record(.load(event: .started, url: "https://down.test/", error: nil, shown: .errorPage))
        #expect(readiness.record(.load(event: .finished, url: "https://down.test/", error: nil, shown: .errorPage))
                == [.ready(status: "Error page: connection-refused https://down.test/")])
        // The retry that works: the status says the page is back.
        _ = readiness.record(.load(event: .started, url: "https://down.test/", error: nil))
        #expect(readiness.record(.load(event: .finished, url: "https://down.test/", error: nil)) == [.status("Showing https://down.test/")])
    }

    /// What a finished load showed is its event's `shown`, not the order of what came before:
    /// an announced error page whose load never came leaves the next live page "Showing".
    @Test func theStatusSaysWhatTheLoadShowed() {
        var readiness = ServiceReadiness()
        _ = readiness.record(.native(action: .errorPage, detail: "network https://down.test/"))
        _ = readiness.record(.load(event: .started, url: "https://a.test/", error: nil))
        #expect(readiness.record(.load(event: .finished, url: "https://a.test/", error: nil)) == [.ready(status: "Showing https://a.test/")])
        _ = readiness.record(.load(event: .started, url: "vitrine-snapshot://abc/", error: nil, shown: .snapshot))
        #expect(readiness.record(.load(event: .finished, url: "vitrine-snapshot://abc/", error: nil, shown: .snapshot))
                == [.status("Showing a kept copy: vitrine-snapshot://abc/")])
    }
}
