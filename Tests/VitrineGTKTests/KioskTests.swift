import CWebKitGTK
import Foundation
import Testing
import Vitrine
@testable import VitrineGTK
import VitrineTesting
import VitrineTestingGTK

/// One way a page can try to leave the kiosk's origins.
struct EscapeRoute: CustomStringConvertible, Sendable {
    let description: String
    /// JavaScript run in the allowed start page that tries to reach `url`.
    let trigger: @Sendable (String) -> String
    /// Whether the attempt shows up as a new-window decision.
    var newWindow = false

    static let all: [EscapeRoute] = [
        EscapeRoute(description: "link") { "const a = document.createElement('a'); a.href = '\($0)'; document.body.append(a); a.click();" },
        EscapeRoute(description: "form") { "const f = document.createElement('form'); f.action = '\($0)'; f.method = 'post'; document.body.append(f); f.submit();" },
        EscapeRoute(description: "location") { "location.href = '\($0)';" },
        EscapeRoute(description: "window.open", trigger: { "window.open('\($0)');" }, newWindow: true),
        EscapeRoute(description: "target=_blank", trigger: { "const a = document.createElement('a'); a.href = '\($0)'; a.target = '_blank'; document.body.append(a); a.click();" }, newWindow: true),
        EscapeRoute(description: "HTTP redirect") { "location.href = '/redirect?to=' + encodeURIComponent('\($0)');" },
        EscapeRoute(description: "meta refresh") { "document.head.insertAdjacentHTML('beforeend', '<meta http-equiv=\"refresh\" content=\"0;url=\($0)\">');" },
        EscapeRoute(description: "iframe") { "const f = document.createElement('iframe'); f.src = '\($0)'; document.body.append(f);" },
    ]
}

extension WebKitTests {
    /// The `kiosk` preset under attack, on pages served from loopback: 127.0.0.1 is the
    /// kiosk's origin, localhost is "the outside".
    @Suite @MainActor
    struct KioskTests {
        static let page = "<!doctype html><html><head><title>kiosk</title></head><body><p>kiosk</p></body></html>"

        @MainActor final class Kiosk {
            let server: LoopbackHTTPServer
            let fixture: ContainerFixture
            var container: WebContainer { fixture.container }
            var events: MemoryEventLog { fixture.log }
            let start: URL

            init(pages: [String: String] = [:], refine: (Configurator, LoopbackHTTPServer) -> Configurator = { c, _ in c }) throws {
                server = try LoopbackHTTPServer(pages: ["start.html": KioskTests.page, "allowed.html": KioskTests.page,
                                                        "outside.html": KioskTests.page].merging(pages) { $1 })
                start = server.url("start.html")
                fixture = try ContainerFixture(refine(ConfiguratorFactory.make(for: .kiosk).startURL(start).fullscreen(false), server))
            }

            func open() async throws {
                try await fixture.start(waitingFor: start)
            }

            func loads(_ url: URL) -> Int {
                events.events.filter { $0.isLoad(.finished, of: url.absoluteString) }.count
            }

            func waitForLoad(_ url: URL, count: Int = 1, timeout: Duration = .seconds(20)) async -> Bool {
                await TestLoop.wait(timeout: timeout) { self.loads(url) >= count }
            }

            func decisions(_ prefix: String) -> [(handler: String, policy: NavigationPolicy, target: NavigationAction.Target)] {
                events.events.compactMap {
                    if case let .navigation(url, handler, policy, _, target, .request) = $0, url.hasPrefix(prefix) {
                        return (handler, policy, target)
                    }
                    return nil
                }
            }

            func natives(_ action: ContainerEvent.NativeAction) -> [String] {
                events.events.details(of: action)
            }

            func close() {
                fixture.close()
                server.stop()
            }
        }

        @Test(arguments: EscapeRoute.all)
        func everyEscapeRouteIsBlockedAndLoggedWhileTheAllowedOriginWorks(route: EscapeRoute) async throws {
            let kiosk = try Kiosk()
            defer { kiosk.close() }
            try await kiosk.open()
            let outside = kiosk.server.url("outside.html", host: "localhost")

            _ = try await kiosk.container.evaluate("(function () { \(route.trigger(outside.absoluteString)) })()")
            #expect(await TestLoop.wait(timeout: .seconds(10)) { !kiosk.decisions(outside.absoluteString).isEmpty },
                    "\(route): no decision for the outside URL")
            let blocked = kiosk.decisions(outside.absoluteString)
            #expect(blocked.allSatisfy { $0.policy == .cancel && $0.handler == "origin-allowlist" }, "\(route): \(blocked)")
            if route.newWindow { #expect(blocked.first?.target == .newWindow) }
            try await kiosk.fixture.roundTrip()
            #expect(kiosk.container.currentURL?.host == "127.0.0.1")

            // The same route to the kiosk's own origin still works.
            let allowed = kiosk.server.url("allowed.html")
            _ = try await kiosk.container.evaluate("(function () { \(route.trigger(allowed.absoluteString)) })()")
            #expect(await TestLoop.wait(timeout: .seconds(10)) {
                kiosk.decisions(allowed.absoluteString).contains { $0.policy == .allow }
            }, "\(route): the allowed origin was not allowed")
            // That later navigation's decision settles the blocked one: the outside page
            // never loaded before it.
            #expect(kiosk.events.events.allSatisfy {
                if case let .load(event, url, _, _, _) = $0, event == .committed || event == .finished {
                    return !url.hasPrefix(outside.absoluteString)
                }
                return true
            }, "\(route): the outside page must never load")
        }

        /// `data:` and `file:` top-level loads, from the page and handed to the container, and
        /// `javascript:` URLs handed to the container. (A page's own `javascript:` link runs
        /// script in its own document and origin, as any of its scripts can: not an escape.)
        @Test(arguments: ["data:text/html,<title>escaped</title>", "file:///etc/hostname", "javascript:document.title='escaped'"])
        func opaqueAndLocalTopLevelLoadsAreBlocked(url: String) async throws {
            let kiosk = try Kiosk()
            defer { kiosk.close() }
            try await kiosk.open()
            if !url.hasPrefix("javascript:") {
                _ = try await kiosk.container.evaluate("try { location.href = \(JSONValue.string(url).jsonText); } catch (e) {}")
                try await kiosk.fixture.roundTrip() // the page's attempt is decided (or refused by WebKit) by now
            }
            // …and as a top-level load handed to the container (remote control, a link handler),
            // settled by its own decision, then a round trip through the page.
            let blocks = { kiosk.decisions(String(url.prefix(5))).filter { $0.policy == .cancel }.count }
            let before = blocks()
            kiosk.container.startLoading(URL(string: url)!)
            #expect(await TestLoop.wait(timeout: .seconds(10)) { blocks() > before }, "the block is in the events log")
            try await kiosk.fixture.roundTrip()
            #expect(try await kiosk.container.evaluate("document.title") == "kiosk", "the page was replaced or scripted")
            #expect(kiosk.container.currentURL?.host == "127.0.0.1")
            #expect(kiosk.decisions(String(url.prefix(5))).contains { $0.policy == .cancel },
                    "the block is in the events log")
        }

        @Test func aKilledWebProcessComesBackByItself() async throws {
            let kiosk = try Kiosk()
            defer { kiosk.close() }
            try await kiosk.open()
            let reports = ReportLog(appDataFolder: kiosk.container.configuration.appDataDirectory)
            let reportedBefore = reports.reports().count
            let processes = webProcessIDs()
            try #require(!processes.isEmpty, "no web process found")
            for pid in processes { kill(pid, SIGKILL) }
            #expect(await TestLoop.wait { kiosk.natives(.webProcessTerminated) == ["crashed"] })
            #expect(await kiosk.waitForLoad(kiosk.start, count: 2), "the page came back")
            #expect(kiosk.natives(.recover) == [kiosk.start.absoluteString])
            #expect(try await kiosk.container.evaluate("document.title") == "kiosk")
            // The crash is in the app's reports, with the page it took away.
            let crash = reports.reports().dropFirst(reportedBefore).map { ($0.kind, $0.url, $0.message) }
            #expect(crash.count == 1 && crash.first?.0 == .webProcessCrash && crash.first?.1 == kiosk.start.absoluteString, "\(crash)")
        }

        @Test func aHungPageIsTerminatedAndRecovered() async throws {
            let kiosk = try Kiosk(refine: { c, _ in c.kiosk(KioskOptions(unresponsiveTimeout: .seconds(2))) })
            defer { kiosk.close() }
            try await kiosk.open()
            // A page that answers is left alone: the probes come back, nothing is terminated.
            let recovery = kiosk.container.stage.activePane.recovery
            #expect(await TestLoop.wait(timeout: .seconds(20)) { recovery.probesAnswered >= 3 }, "the probes were not answered")
            #expect(kiosk.natives(.unresponsive).isEmpty && kiosk.natives(.webProcessTerminated).isEmpty)
            _ = try await kiosk.container.evaluate("setTimeout(() => { while (true) {} }, 50); 1")
            #expect(await TestLoop.wait(timeout: .seconds(20)) { !kiosk.natives(.unresponsive).isEmpty }, "hang not detected")
            #expect(await TestLoop.wait { kiosk.natives(.webProcessTerminated).contains("terminated") })
            #expect(await kiosk.waitForLoad(kiosk.start, count: 2), "the page came back")
            #expect(try await kiosk.container.evaluate("1 + 1") == 2, "the new process answers")
            // One report, a hang: the process Vitrine terminated for it is no crash of its own.
            let reported = ReportLog(appDataFolder: kiosk.container.configuration.appDataDirectory).reports()
                .filter { $0.url == kiosk.start.absoluteString }.map(\.kind)
            #expect(reported == [.hang], "\(reported)")
        }

        @Test func aCrashLoopShowsTheErrorPageInsteadOfRestarting() async throws {
            let kiosk = try Kiosk(refine: { c, _ in c.kiosk(KioskOptions(crashLoopLimit: 2, crashLoopBackoff: .seconds(30))) })
            defer { kiosk.close() }
            try await kiosk.open()
            for crash in 1...3 {
                for pid in webProcessIDs() { kill(pid, SIGKILL) }
                #expect(await TestLoop.wait { kiosk.natives(.webProcessTerminated).count == crash })
                if crash < 3 { #expect(await kiosk.waitForLoad(kiosk.start, count: crash + 1)) }
            }
            #expect(await TestLoop.wait { kiosk.natives(.crashLoop) == [kiosk.start.absoluteString] })
            #expect(kiosk.natives(.recover).count == 2, "two restarts, then the error page")
            #expect(await kiosk.container.valueInPage("document.documentElement.dataset.kind === 'crash-loop' && 'crash-loop'") == "crash-loop")
            let status = try await kiosk.container.evaluate("document.getElementById('status').textContent")
            #expect(status.stringValue?.hasPrefix("Trying again in") == true, "a countdown: \(status)")
        }

        /// A load is answered from its own decision: a bare origin (which WebKit asks about
        /// as `…/`) refused by the allow-list is refused at once, not left to time out, and
        /// a look-alike of an allowed page does not answer for it.
        @Test func aLoadReturnsItsDecisionEvenForABareOrigin() async throws {
            let kiosk = try Kiosk()
            defer { kiosk.close() }
            try await kiosk.open()
            let started = ContinuousClock.now
            let outside = try #require(URL(string: "http://localhost:\(kiosk.server.port)"))
            #expect(await kiosk.container.load(outside) == .decided(NavigationDecision(policy: .cancel, handler: "origin-allowlist")))
            #expect(ContinuousClock.now - started < .seconds(10), "answered by the decision, not by the timeout")
            let inside = try #require(URL(string: "http://127.0.0.1:\(kiosk.server.port)?from=remote"))
            #expect(await kiosk.container.load(inside).isAllowed)
            let javascript = try #require(URL(string: "javascript:alert(1)"))
            #expect(await kiosk.container.load(javascript) == .decided(NavigationDecision(policy: .cancel, handler: "javascript-url")))
        }

        @Test func idleResetReturnsToTheStartPage() async throws {
            let kiosk = try Kiosk(refine: { c, _ in c.kiosk(KioskOptions(idleReset: .seconds(2))) })
            defer { kiosk.close() }
            try await kiosk.open()
            let allowed = kiosk.server.url("allowed.html")
            await kiosk.container.load(allowed)
            #expect(await kiosk.waitForLoad(allowed))
            #expect(await TestLoop.wait(timeout: .seconds(10)) { kiosk.natives(.idleReset).count >= 1 })
            #expect(await kiosk.waitForLoad(kiosk.start, count: 2))
            #expect(kiosk.container.currentURL == kiosk.start)
        }

        @Test(arguments: [false, true])
        func permissionRequestsAreDeniedUnlessTheConfigAllowsThem(granted: Bool) async throws {
            let kiosk = try Kiosk(refine: { configurator, server in
                // A grant to another origin (no port) never counts.
                let refined = configurator.grantPermissions([.notifications, .geolocation], to: Origin(string: "http://127.0.0.1")!)
                return granted ? refined.grantPermissions([.notifications], to: Origin(server.url(""))!) : refined
            })
            defer { kiosk.close() }
            try await kiosk.open()
            let result = try await kiosk.container.evaluateAsync("return await Notification.requestPermission();")
            #expect(result == (granted ? "granted" : "denied"))
            let origin = Origin(kiosk.server.url(""))!.description
            #expect(kiosk.events.events.contains(.permission(kind: "notifications", origin: origin, granted: granted)))
        }

        @Test func lockdownSwallowsHistoryAndZoomShortcutsAndTheContextMenu() async throws {
            let kiosk = try Kiosk()
            defer { kiosk.close() }
            try await kiosk.open()
            let view = kiosk.container.stage.panes[0].widget
            func press(_ keyval: Int32, _ state: GdkModifierType) {
                let event = gdk_event_new(GDK_KEY_PRESS)!
                event.pointee.key.window = gtk_widget_get_window(view)
                g_object_ref(UnsafeMutableRawPointer(event.pointee.key.window))
                event.pointee.key.keyval = guint(keyval)
                event.pointee.key.state = state.rawValue
                event.pointee.key.time = guint32(GDK_CURRENT_TIME)
                gdk_event_set_device(event, gdk_seat_get_keyboard(gdk_display_get_default_seat(gdk_display_get_default())))
                gtk_widget_event(view, event)
                gdk_event_free(event)
            }
            press(GDK_KEY_Left, GDK_MOD1_MASK)
            press(GDK_KEY_plus, GDK_CONTROL_MASK)
            press(GDK_KEY_r, GDK_CONTROL_MASK)
            // The same keys without the modifier are typing and caret moves: they pass.
            for key in [GDK_KEY_a, GDK_KEY_q, GDK_KEY_r, GDK_KEY_minus, GDK_KEY_0, GDK_KEY_Left, GDK_KEY_Home] {
                press(key, GdkModifierType(rawValue: 0))
            }
            #expect(kiosk.natives(.blockedShortcut) == ["alt+history", "ctrl+zoom", "ctrl+r"])

            let click = gdk_event_new(GDK_BUTTON_PRESS)!
            click.pointee.button.window = gtk_widget_get_window(view)
            g_object_ref(UnsafeMutableRawPointer(click.pointee.button.window))
            click.pointee.button.button = 3
            click.pointee.button.x = 100
            click.pointee.button.y = 100
            click.pointee.button.time = guint32(GDK_CURRENT_TIME)
            gdk_event_set_device(click, gdk_seat_get_pointer(gdk_display_get_default_seat(gdk_display_get_default())))
            gtk_widget_event(view, click)
            gdk_event_free(click)
            #expect(await TestLoop.wait(timeout: .seconds(5)) { !kiosk.natives(.blockedContextMenu).isEmpty })
        }

        @Test(arguments: [false, true])
        func downloadsAreRefusedUnlessADownloadFolderIsConfigured(configured: Bool) async throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vitrine-downloads-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let kiosk = try Kiosk(pages: ["data.bin": "binary payload"]) { configurator, _ in
                configured
                    ? configurator.downloadDirectory(folder)
                        .navigationHandlers([OriginAllowlistHandler(), DefaultAllowHandler(allowsDownloads: true)])
                    : configurator
            }
            defer { kiosk.close() }
            try await kiosk.open()
            _ = try await kiosk.container.evaluate("(function () { const a = document.createElement('a'); a.href = 'data.bin'; document.body.append(a); a.click(); })()")
            let saved = folder.appendingPathComponent("data.bin").path
            if configured {
                #expect(await TestLoop.wait(timeout: .seconds(10)) { !kiosk.natives(.downloadFinished).isEmpty })
                #expect(kiosk.natives(.downloadFinished) == [saved])
                #expect((try? String(contentsOfFile: saved, encoding: .utf8)) == "binary payload")
            } else {
                let url = kiosk.server.url("data.bin").absoluteString
                #expect(await TestLoop.wait(timeout: .seconds(10)) {
                    kiosk.events.events.contains {
                        if case let .navigation(decided, _, .cancel, _, _, .response) = $0 { return decided == url }
                        return false
                    }
                })
                // Settled by the refusal above, then a round trip through the page.
                try await kiosk.fixture.roundTrip()
                #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
                #expect(kiosk.natives(.downloadStarted).isEmpty)
            }
            #expect(kiosk.container.currentURL == kiosk.start)
        }

        @Test func theKioskWindowIsUndecoratedWithAHiddenPointerAndAsksToKeepTheScreenOn() async throws {
            let kiosk = try Kiosk { configurator, _ in configurator.kiosk(KioskOptions(hidesCursor: true)) }
            defer { kiosk.close() }
            try await kiosk.open()
            let window = kiosk.container.windowPointer
            #expect(gtk_window_get_decorated(window) == 0)
            let cursor = gdk_window_get_cursor(gtk_widget_get_window(kiosk.container.window))
            #expect(cursor.map { gdk_cursor_get_cursor_type($0) } == GDK_BLANK_CURSOR)
            #expect(kiosk.natives(.cursorHidden).count == 1)
            // Under Xvfb there is no screen saver to talk to: the attempt and its outcome are logged.
            #expect(kiosk.natives(.inhibitIdle).count == 1)
            let settings = webkit_web_view_get_settings(kiosk.container.stage.panes[0].webView)
            #expect(webkit_settings_get_enable_developer_extras(settings) == 0)
        }
    }
}
