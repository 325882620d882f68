import Foundation
import Testing
import Vitrine
import VitrineConfigFile

/// The decisions the adapter only carries out, tested as values without a display.
@Suite("Policies decided in the core")
struct PolicyTests {
    private let page = URL(string: "https://shop.example.com/next")!

    private func decision(_ policy: NavigationPolicy) -> NavigationDecision {
        NavigationDecision(policy: policy, handler: "test")
    }

    @Test func anAllowedNewWindowLoadsInTheCurrentView() throws {
        let configuration = try Configurator().build()
        let newWindow = NavigationAction(url: page, target: .newWindow)
        #expect(configuration.outcome(of: decision(.allow), for: newWindow) == .loadInCurrentView(page))
        #expect(configuration.outcome(of: decision(.cancel), for: newWindow) == .answer(.cancel))
        let here = NavigationAction(url: page)
        #expect(configuration.outcome(of: decision(.allow), for: here) == .answer(.allow))
        #expect(configuration.outcome(of: decision(.cancel), for: here) == .answer(.cancel))
    }

    @Test func aDownloadNeedsADownloadFolder() throws {
        let response = NavigationAction(url: page, phase: .response(NavigationResponse(
            mimeType: "application/zip", statusCode: 200, canShowMIMEType: false, isMainFrame: true)))
        let without = try Configurator().build()
        #expect(without.outcome(of: decision(.download), for: response) == .refuseDownload)
        let with = try Configurator().downloadDirectory(URL(fileURLWithPath: "/tmp")).build()
        #expect(with.outcome(of: decision(.download), for: response) == .answer(.download))
    }

    @Test func javascriptURLsAreRefusedBeforeTheChain() throws {
        let configuration = try Configurator().build()
        for text in ["javascript:alert(1)", "JavaScript:void(0)"] {
            let url = try #require(URL(string: text))
            let refusal = try #require(configuration.refusal(ofLoad: url))
            #expect(refusal == NavigationDecision(policy: .cancel, handler: "javascript-url"))
        }
        #expect(configuration.refusal(ofLoad: page) == nil)
        #expect(configuration.refusal(ofLoad: URL(string: "app://demo/index.html")!) == nil)
    }

    @Test func permissionsAreGrantedOnlyWhollyAndOnlyToTheirOrigin() throws {
        let shop = try #require(Origin(page))
        let configuration = try Configurator().grantPermissions([.camera, .microphone], to: shop).build()
        let both = configuration.permissionDecision(for: [.microphone, .camera], from: shop)
        #expect(both == PermissionDecision(isGranted: true, kindName: "camera+microphone", originName: "https://shop.example.com"))
        #expect(!configuration.permissionDecision(for: [.camera, .geolocation], from: shop).isGranted, "one kind not granted")
        let other = try #require(Origin(URL(string: "https://evil.example")!))
        #expect(!configuration.permissionDecision(for: [.camera], from: other).isGranted)
        let unknown = configuration.permissionDecision(for: [], from: shop)
        #expect(unknown == PermissionDecision(isGranted: false, kindName: "unknown", originName: "https://shop.example.com"))
        #expect(configuration.permissionDecision(for: [.camera], from: nil).originName == "null")
        #expect(!configuration.permissionDecision(for: [.camera], from: nil).isGranted)
    }

    @Test func developerToolsAreNeverOnUnderLockdown() throws {
        #expect(try Configurator().developerTools().build().webViewSettings.developerExtras)
        #expect(try !Configurator().build().webViewSettings.developerExtras)
        let locked = try Configurator().developerTools().kiosk(KioskOptions(lockdown: true)).build().webViewSettings
        #expect(!locked.developerExtras)
        #expect(locked.javascriptCanOpenWindows, "under lockdown every window.open reaches the chain")
        let open = try Configurator().developerTools().kiosk(KioskOptions(lockdown: false)).build().webViewSettings
        #expect(open.developerExtras)
        #expect(!open.javascriptCanOpenWindows)
        #expect(try Configurator().userAgent("Kiosk/1").build().webViewSettings.userAgent == "Kiosk/1")
    }

    @Test func theKioskPresetNeverEnablesDeveloperTools() throws {
        let kiosk = try ConfiguratorFactory.make(for: .kiosk).startURL(page).developerTools().build()
        #expect(!kiosk.webViewSettings.developerExtras)
    }

    @Test func aCrashLoopIsMoreDeathsThanTheLimitWithinTheWindow() {
        var detector = CrashLoopDetector(options: KioskOptions(
            crashLoopLimit: 2, crashLoopWindow: .seconds(60), crashLoopBackoff: .seconds(30)))
        let start = ContinuousClock.now
        #expect(detector.processDied(at: start) == .reload)
        #expect(detector.processDied(at: start + .seconds(10)) == .reload)
        #expect(detector.processDied(at: start + .seconds(20)) == .showCrashLoopPage(countdownSeconds: 30))
        #expect(detector.processDied(at: start + .seconds(21)) == .reload, "the count starts again after a crash loop")
        #expect(detector.processDied(at: start + .seconds(22)) == .reload)
        // Deaths older than the window no longer count.
        #expect(detector.processDied(at: start + .seconds(200)) == .reload)
        #expect(detector.processDied(at: start + .seconds(201)) == .reload)
        #expect(detector.processDied(at: start + .seconds(202)) == .showCrashLoopPage(countdownSeconds: 30))
    }

    @Test func theWatchdogTerminatesAProcessThatLeavesAProbeUnanswered() {
        var watchdog = HangWatchdog(timeout: .seconds(8))
        #expect(watchdog.interval == .seconds(2))
        let start = ContinuousClock.now
        #expect(watchdog.tick(at: start, canProbe: false) == .wait, "no probe while loading or before a page")
        #expect(watchdog.tick(at: start, canProbe: true) == .sendProbe)
        #expect(watchdog.tick(at: start + .seconds(2), canProbe: true) == .wait, "one probe at a time")
        #expect(watchdog.tick(at: start + .seconds(7), canProbe: true) == .wait)
        #expect(watchdog.tick(at: start + .seconds(8), canProbe: true) == .terminate)
        #expect(watchdog.probeSentAt == nil)
        // An answered probe clears; a late answer to an older probe does not.
        let second = start + .seconds(10)
        #expect(watchdog.tick(at: second, canProbe: true) == .sendProbe)
        watchdog.probeAnswered(sentAt: start)
        #expect(watchdog.probeSentAt == second, "a stale answer counts for nothing")
        watchdog.probeAnswered(sentAt: second)
        #expect(watchdog.probeSentAt == nil)
        #expect(watchdog.tick(at: second + .seconds(30), canProbe: true) == .sendProbe)
        watchdog.reset()
        #expect(watchdog.probeSentAt == nil)
    }

    @Test func downloadsGetAPlainFileNameThatOverwritesNothing() {
        let folder = URL(fileURLWithPath: "/downloads")
        var taken: Set<String> = []
        let exists = { (path: String) in taken.contains(path) }
        #expect(DownloadDestination.path(in: folder, suggested: "report.pdf", exists: exists) == "/downloads/report.pdf")
        #expect(DownloadDestination.path(in: folder, suggested: "../../etc/passwd", exists: exists) == "/downloads/passwd")
        #expect(DownloadDestination.path(in: folder, suggested: "..", exists: exists) == "/downloads/download")
        #expect(DownloadDestination.path(in: folder, suggested: "", exists: exists) == "/downloads/download")
        taken = ["/downloads/report.pdf", "/downloads/2-report.pdf"]
        #expect(DownloadDestination.path(in: folder, suggested: "report.pdf", exists: exists) == "/downloads/3-report.pdf")
    }
}

@MainActor
@Suite("Event sinks")
struct EventSinksTests {
    @Test func sinksAddedBeforeTheStartGetWhatWasRecordedWhileBuilding() {
        var sinks = EventSinks()
        let early = MemoryEventLog()
        sinks.record(.native(action: .tlsException, detail: "example.org"))
        sinks.add(early)
        let late = MemoryEventLog()
        sinks.add(late)
        sinks.record(.native(action: .home, detail: ""))
        #expect(early.events == [.native(action: .tlsException, detail: "example.org"), .native(action: .home, detail: "")])
        #expect(late.events == early.events)
        sinks.started()
        let afterStart = MemoryEventLog()
        sinks.add(afterStart)
        sinks.record(.native(action: .emit, detail: "x"))
        #expect(afterStart.events == [.native(action: .emit, detail: "x")], "after the start, only what comes next")
    }

    @Test func aContainerThatNeverStartsKeepsABoundedNumber() {
        var sinks = EventSinks()
        for index in 0...EventSinks.startupLimit { sinks.record(.native(action: .emit, detail: "\(index)")) }
        let late = MemoryEventLog()
        sinks.add(late)
        #expect(late.events.isEmpty, "past the limit nothing is kept")
    }
}

@Suite("Rendering options")
struct RenderingOptionTests {
    @Test func aFileSetsHardwareAcceleration() throws {
        let configurator = try ConfigFile.parse(text: "[rendering]\nhardware-acceleration = \"never\"\n", path: "/tmp/r.toml")
        #expect(try configurator.build().hardwareAcceleration == .never)
        #expect(try ConfigFile.parse(text: "", path: "/tmp/r.toml").build().hardwareAcceleration == nil, "none: decided by the renderer")
    }

    @Test func theDMABUFRendererIsSwitchedOffThroughWebKitsEnvironment() throws {
        let off = try ConfigFile.parse(text: "[rendering]\ndmabuf-renderer = false\n", path: "/tmp/r.toml").build()
        #expect(off.webKitEnvironment == ["WEBKIT_DISABLE_DMABUF_RENDERER": "1"])
        #expect(try Configurator().build().webKitEnvironment.isEmpty, "on by default: WebKit's own choice")
    }
}

@Suite("Nothing native over a locked-down kiosk")
struct NativeUIPolicyTests {
    @Test func aLockedDownKioskAnswersScriptDialogsAtOnce() throws {
        let kiosk = try Configurator().kiosk(KioskOptions(lockdown: true)).build()
        #expect(kiosk.answer(toScriptDialog: .alert) == .dismissed)
        #expect(kiosk.answer(toScriptDialog: .confirm) == .confirmed(false))
        #expect(kiosk.answer(toScriptDialog: .prompt) == .text(nil))
        #expect(kiosk.answer(toScriptDialog: .beforeUnload) == .confirmed(true), "nothing keeps the kiosk on a page")
        #expect(!kiosk.opensNativeDialogs)
        #expect(!kiosk.mayClose(by: .page))
        #expect(!kiosk.mayClose(by: .windowManager))
    }

    @Test func otherWindowsKeepWebKitsDialogsAndCloseAsUsual() throws {
        for configuration in [try Configurator().build(), try Configurator().kiosk(KioskOptions(lockdown: false)).build()] {
            for kind in ScriptDialogKind.allCases { #expect(configuration.answer(toScriptDialog: kind) == nil) }
            #expect(configuration.opensNativeDialogs)
            #expect(configuration.mayClose(by: .page) && configuration.mayClose(by: .windowManager))
        }
        #expect(try ConfiguratorFactory.make(for: .kiosk).build().isLockedDown, "the kiosk preset locks down")
    }
}

@Suite("Website data storage")
struct WebsiteDataStorageTests {
    @Test func appsKeepTheirDataAndKiosksStartAfresh() throws {
        #expect(try Configurator().build().websiteDataStorage == .persistent(directory: nil))
        #expect(try ConfiguratorFactory.make(for: .kiosk).build().websiteDataStorage == .ephemeral)
        let kept = try ConfigFile.parse(text: "preset = \"kiosk\"\n[storage]\npersistent = true\ndata-directory = \"/srv/web\"\n",
                                        path: "/tmp/s.toml").build()
        #expect(kept.websiteDataStorage == .persistent(directory: URL(fileURLWithPath: "/srv/web")))
        let forgotten = try ConfigFile.parse(text: "[storage]\npersistent = false\n", path: "/tmp/s.toml").build()
        #expect(forgotten.websiteDataStorage == .ephemeral)
    }
}
