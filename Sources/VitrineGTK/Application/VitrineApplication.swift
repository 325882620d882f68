#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import CWebKitGTK
import Vitrine

/// A Vitrine app: its windows, its place on the session bus and its remote control, as
/// one object. `run()` runs it under GLib's main loop and turns its life into an exit status:
/// 0 when the window closes (or after the first load with `--exit-after-load`),
/// 1 when the first load of a one-shot run (`--screenshot`, `--exit-after-load`) fails,
/// its start page is blocked or the screenshot cannot be written, 2 on load timeout.
/// Any other run never gives up on its page: a failed load shows the error page and is
/// tried again (`LoadRetrier`) until it loads.
///
/// The app's id (`configuration.applicationID`, reverse DNS) is its GApplication id, its
/// D-Bus name and object path, its window class (WM_CLASS, Wayland app id) and its data
/// folder. Unless told to run alone (or making a one-shot screenshot), the app is a
/// `GtkApplication`, the single instance of its id on the session bus (`g_application_run`):
/// a second start of the same app hands its URL over and exits, `vitrine ctl --app-id ID` /
/// `gapplication action ID` reach its window, its notifications come from its id, and apps
/// with other ids run beside it. The actions, MQTT, metrics, `[[displays]]` and
/// configuration pushes are all here: an embedder gets them by creating this object.
@MainActor
public final class VitrineApplication: EventSink {
    /// The configuration in force (a pushed one replaces it).
    public private(set) var configuration: Configuration
    /// The file it was read from: a pushed configuration replaces it and is read the same way.
    let configFile: ConfigurationFile?
    var configPath: String? { configFile?.path }
    let eventLog: JSONLinesEventLog?
    /// The renderer and media decoders, recorded on each window, from the start of `run`.
    var machineFacts: MachineFacts?
    /// Called with every container the app makes (the first, a pushed configuration's, each
    /// display's), before it starts: an embedder's observers go here.
    public var containerObservers: [@MainActor (WebContainer) -> Void] = []
    private let screenshot: String?
    let deepLink: URL?
    private let exitAfterLoad: Bool
    private let loadTimeout: Double
    let singleInstance: Bool
    /// A run that ends after its first load (`--screenshot`, `--exit-after-load`).
    private let oneShot: Bool
    private(set) var status: Int32 = 0
    private var firstLoadSettled = false
    /// With `waitsForSDK`: whether the first page's load finished, whether its bridge is up.
    private var firstLoadFinishedWaitingForSDK = false, sdkReady: Bool
    private(set) var remote: RemoteControl?
    /// The one dispatch of remote commands, from the bus and from MQTT.
    let dispatch = RemoteDispatch()
    var mqtt: MQTTRemote?
    private(set) var container: WebContainer?
    /// The app's tray icon, global shortcuts and notifications: one for all its windows.
    public let services = AppServices()
    /// A pushed configuration on probation (see VitrineApplication+ConfigPush.swift).
    var trial: ConfigPushTrial?
    /// The Prometheus metrics file (`[metrics] textfile`), while this program is the instance.
    var metricsFile: MetricsTextfile?
    /// x11vnc serving the screen (`[remote.vnc]`), while the loop runs.
    var remoteView: RemoteViewServer?
    /// systemd's notify protocol (`Type=notify`), when the program runs as such a service.
    public var serviceNotifier: ServiceNotifier?
    /// The last events and the metrics, for support bundles, whatever else is configured.
    let recentEvents = RecentEvents(), bundleMetrics = ContainerMetrics()
    /// The daily proof-of-play files, with a playlist (`[[schedule.playlist]]`, `[[displays.playlist]]`).
    var proofOfPlay: ProofOfPlayLog?
    /// Set when `vitrine dev` runs this program (`DevSession`): the web folder's watch.
    private let devSession: DevSession?
    private var devReloader: DevReloader?
    /// A WebDriver session drives the app (`RunOptions.automation`).
    let automation: Bool
    var automationHost: AutomationHost?
    /// Whether the session has had the first window's view (later requests get new windows).
    var gaveFirstViewToAutomation = false

    public init(configuration: Configuration, configFile: ConfigurationFile? = nil, eventLog: JSONLinesEventLog? = nil,
                options: RunOptions = RunOptions()) {
        // Under `vitrine dev`: the inspector on, the page's errors in the terminal, the web
        // folder watched, and never handed to another instance.
        let dev = DevSession()
        devSession = dev
        // Every output of the process masks the configuration's credentials from here on.
        SecretMask.shared.add(configuration.credentials)
        automation = options.automation
        let driven = options.automation ? configuration.forAutomation() : configuration
        self.configuration = Self.withLaunchCommand(dev == nil ? driven : Self.forDevelopment(driven), configFile: configFile)
        deepLink = options.deepLink
        self.configFile = configFile
        self.eventLog = eventLog
        screenshot = options.screenshot
        exitAfterLoad = options.exitAfterLoad
        loadTimeout = options.loadTimeout
        // A one-shot run (screenshot, exit after load) is never handed to another window.
        oneShot = screenshot != nil || exitAfterLoad
        // A tarball update's new version starts while the old one still runs: never handed to it.
        singleInstance = options.singleInstance && !oneShot && devSession == nil && !options.automation && !UpdateBeacon.isSet
        sdkReady = !options.waitsForSDK
        dispatch.quit = { GTKRuntime.quit() }
    }

    /// The app's reverse-DNS id.
    public var applicationID: String { configuration.applicationID }

    /// Runs the app until its last window closes, `quit`, SIGTERM or SIGINT (or a one-shot
    /// run's end); its exit status. Call once, from the main thread, outside any main-queue job.
    public func run() -> Int32 {
        // The log is batched per main-loop turn: whatever waits is written on every way out
        // (a handed-over start records its navigation decision without any loop turn).
        defer { eventLog?.flush() }
        if automation, let refusal = configuration.automationRefusal {
            printToStandardError("\(Self.programName): error: \(refusal)")
            return 1
        }
        let sandbox = SandboxCheck(configuration)
        GTKRuntime.initialize(applicationID: applicationID, for: configuration)
        // A clear error and a non-zero exit rather than WebKit aborting (or a blank window) later.
        if let problem = sandbox.problem() {
            printToStandardError("vitrine: error: \(problem)")
            return 1
        }
        moveLegacyData()
        if !oneShot { proofOfPlay = makeProofOfPlayLog() }
        machineFacts = MachineFacts { [weak self] in self?.warnAboutMachineMedia($0) }
        if !configuration.displays.isEmpty && !oneShot && !automation { return runDisplays() }
        ProcessWebContext.automation = automation
        let container = makeContainer(configuration)
        self.container = container
        let firstStart = FirstStart(tracing: configuration.tracesStartup)
        container.attach(firstStart)
        machineFacts?.afterListing { [weak firstStart] in firstStart?.machineFactsListed() }
        if automation { startAutomation() }
        if singleInstance {
            // The page starts loading (and WebKit's processes starting) while the bus
            // answers; the window is shown only once this process is the instance.
            container.preload()
            guard becomeInstance() else {
                container.close()
                return 0
            }
        }
        dispatch.container = container
        startSidecars()
        dispatch.applyConfiguration = { [weak self] text, reply in self?.push(text, reply: reply) }
        dispatch.makeSupportArchive = { [weak self] in try await self?.supportArchive() }
        if let remote {
            remote.adopt(container)
            remote.dispatch = dispatch
        }
        if let textfile = configuration.metricsTextfile {
            let metricsFile = MetricsTextfile(path: textfile.path, interval: configuration.metricsInterval)
            container.addEventSink(metricsFile.metrics) // told what happened while the page preloaded
            self.metricsFile = metricsFile
        }
        if !oneShot, let settings = configuration.mqtt {
            startMQTT(settings)
            connectMQTT(to: container)
        }
        container.attach(FirstLoadWatch(app: self))
        if oneShot {
            Task { @MainActor [weak self] in
                try? await Task.sleep(for: .seconds(self?.loadTimeout ?? 60))
                guard let self, !self.firstLoadSettled else { return }
                self.finish(status: 2, message: self.firstLoadFinishedWaitingForSDK
                    ? "the page loaded but its SDK did not start within \(self.loadTimeout) s (is \(ResourceLocator().sdkDirectory.path) readable?)"
                    : "the first load did not finish within \(self.loadTimeout) s")
            }
        }
        if let devSession {
            devReloader = DevReloader(container: container, folder: devSession.watchedFolder)
            printToStandardError("vitrine dev: \(Self.programName) watching \(devSession.watchedFolder.path)")
        }
        container.start()
        if let deepLink { container.feature(DeepLinkFeature.self)?.open(deepLink) }
        if !oneShot { startReports { [weak container] in container?.record($0) } }
        metricsFile?.start()
        if !oneShot { startRemoteView() }
        serviceNotifier?.startWatchdog()
        runLoop()
        services.sidecars?.stop()
        remoteView?.stop()
        serviceNotifier?.stop()
        devReloader = nil
        // However the loop ended (SIGTERM, a one-shot run's end), the container tears down:
        // its owners hand back what they hold (the screen saver's inhibition, a dialog).
        if let container = self.container { close(container) }
        mqtt = nil
        metricsFile?.finish() // vitrine_up 0: ended, not crashed
        return status
    }

    /// Claims the app id's name on the session bus (its window then answers `vitrine ctl`);
    /// false when the start was handed over to the running instance instead.
    func becomeInstance() -> Bool {
        switch RemoteControl.register(applicationID: applicationID, handingOver: deepLink ?? configuration.startURL) {
        case .handedOver:
            printToStandardError("\(Self.programName): handed over to the running instance of \(applicationID)")
            return false
        case .standalone(let reason):
            printToStandardError("\(Self.programName): running without remote control: \(reason)")
        case .primary(let control):
            remote = control
        }
        return true
    }

    /// The main loop: the application's (`g_application_run`) when this process is the
    /// app's instance, else GTK's.
    func runLoop() {
        if let remote { remote.run() } else { GTKRuntime.run() }
    }

    /// Data earlier versions kept under `<data home>/vitrine/<id>/` moves to the app's folder.
    private func moveLegacyData() {
        do {
            if let moved = try ApplicationID.moveLegacyData(of: applicationID) {
                printToStandardError("\(Self.programName): moved the app's data to \(moved.path)")
            }
        } catch {
            printToStandardError("\(Self.programName): cannot move the app's data from \(ApplicationID.dataHome.path)/vitrine/\(applicationID): \(error)")
        }
    }

    /// A container for `configuration`, with every sink the program keeps across pushes.
    func makeContainer(_ configuration: Configuration) -> WebContainer {
        let container = WebContainer(configuration: configuration, services: services)
        for observe in containerObservers { observe(container) }
        if let eventLog { container.addEventSink(eventLog) }
        container.addEventSink(recentEvents)
        if metricsFile == nil { container.addEventSink(bundleMetrics) }
        if let proofOfPlay { container.addEventSink(proofOfPlay) }
        container.addEventSink(self)
        if let metricsFile { container.addEventSink(metricsFile.metrics) }
        if let serviceNotifier { container.addEventSink(serviceNotifier) }
        if mqtt != nil { connectMQTT(to: container) }
        machineFacts?.record(on: container)
        // Closing the last of the app's windows ends the program.
        container.windows.onLastWindowClosed = { GTKRuntime.quit() }
        return container
    }

    /// Closes `container` and the windows it opened, without ending the program.
    private func close(_ container: WebContainer) {
        container.windows.onLastWindowClosed = nil
        for window in container.windows.windows { window.close() }
        container.close()
    }

    /// Replaces the running container with one for `configuration` (a pushed one, or the
    /// one it replaced): the old window closes without ending the program.
    func replaceContainer(with configuration: Configuration) {
        let old = container
        SecretMask.shared.add(configuration.credentials)
        let new = makeContainer(Self.withLaunchCommand(configuration, configFile: configFile))
        self.configuration = new.configuration
        container = new
        dispatch.container = new
        remote?.adopt(new)
        if let old { close(old) }
        new.start()
    }

    /// Joins the fleet's broker. Connecting happens on the library's own thread: a broker
    /// that is down does not delay the page.
    func startMQTT(_ settings: MQTTSettings) {
        let mqtt = MQTTRemote(settings: settings, version: VitrineVersion.string, dispatch: dispatch)
        do {
            try mqtt.start()
        } catch {
            printToStandardError("\(Self.programName): running without MQTT: \(error)")
            return
        }
        self.mqtt = mqtt
    }

    /// The broker hears every event (through `sink` when given) and every title the page takes.
    func connectMQTT(to container: WebContainer, reporting sink: (any EventSink)? = nil) {
        guard let mqtt else { return }
        container.addEventSink(sink ?? mqtt)
        container.attach(StatePublisher(mqtt: mqtt))
    }

    /// The app's own sink on its containers (not for callers): follows a pushed
    /// configuration's trial, and watches for the start page being refused by the chain: a
    /// cancelled start has no load event, and a one-shot run would otherwise wait for its timeout.
    public func record(_ event: ContainerEvent) {
        observeTrial(event)
        guard !firstLoadSettled, oneShot,
              case let .navigation(url, handler, .cancel, _, _, .request) = event,
              let start = configuration.startURL,
              // Events arrive redacted: a start URL with a password matches only in that form.
              URL(string: url).map({ $0.isSamePage(as: start) }) ?? (url == Redaction.text(start.absoluteString))
        else { return }
        finish(status: 1, message: "the start page \(url) was blocked by the navigation chain (\(handler))")
    }

    /// A load event of the app's first window, until its first load has settled.
    fileprivate func firstLoadChanged(_ event: ContainerEvent.LoadEvent, in container: WebContainer) {
        guard !firstLoadSettled else { return }
        switch event {
        case .finished where !sdkReady:
            firstLoadFinishedWaitingForSDK = true
            // A page registers only once it uses the bridge: its bridge is asked instead.
            Task { @MainActor [weak self, weak container] in
                if let container, await container.bridgeIsPresent() { self?.pageBridgeReady(in: container) }
            }
        case .finished: firstLoadFinished(container)
        case .failed where oneShot: finish(status: 1, message: "the first load failed")
        default: break
        }
    }

    /// The first window's page's bridge is up (it answered, or registered).
    fileprivate func pageBridgeReady(in container: WebContainer) {
        guard !sdkReady else { return }
        sdkReady = true
        if firstLoadFinishedWaitingForSDK && !firstLoadSettled { firstLoadFinished(container) }
    }

    private func firstLoadFinished(_ container: WebContainer) {
        firstLoadSettled = true
        guard let screenshot else {
            if exitAfterLoad { finish(status: 0, message: nil) }
            return
        }
        Task { @MainActor in
            do {
                try await container.snapshot(to: screenshot)
                printToStandardError("\(Self.programName): screenshot written to \(screenshot)")
                if exitAfterLoad { finish(status: 0, message: nil) }
            } catch {
                finish(status: 1, message: "cannot write the screenshot: \(error)")
            }
        }
    }

    private func finish(status: Int32, message: String?) {
        firstLoadSettled = true
        machineFacts?.settle()
        self.status = status
        if let message { printToStandardError("\(Self.programName): error: \(message)") }
        GTKRuntime.quit()
    }
}

extension VitrineApplication {
    /// `configuration` as `vitrine dev` runs it: the page's errors printed as its own are.
    static func forDevelopment(_ configuration: Configuration) -> Configuration {
        let script = ResourceLocator().sdkDirectory.appendingPathComponent("dev-console.js")
        let source = try? String(contentsOf: script, encoding: .utf8)
        if source == nil { printToStandardError("vitrine dev: \(script.path) cannot be read: the page's errors are not printed here") }
        return configuration.forDevelopment(consoleScript: source) { printToStandardError("vitrine dev: " + $0) }
    }

    /// The program's name, which opens its lines on standard error.
    nonisolated static var programName: String { ProcessInfo.processInfo.processName }
}

/// The app's first load: a one-shot run ends on it, a service is ready after it (once the
/// page's SDK is up, when the run waits for it).
@MainActor
private final class FirstLoadWatch: WindowFeature {
    private weak var app: VitrineApplication?
    private weak var container: WebContainer?

    init(app: VitrineApplication) {
        self.app = app
    }

    func attach(to host: any FeatureHost) {
        container = host.container
    }

    func loadChanged(_ load: PaneLoad) {
        guard let app, let container else { return }
        app.firstLoadChanged(load.event, in: container)
    }

    func pageReady(_ url: URL) {
        guard let app, let container else { return }
        app.pageBridgeReady(in: container)
    }
}

/// The broker's state follows the title the page takes.
@MainActor
private final class StatePublisher: WindowFeature {
    private weak var mqtt: MQTTRemote?

    init(mqtt: MQTTRemote) {
        self.mqtt = mqtt
    }

    func titleChanged(_ title: String) {
        mqtt?.publishState()
    }
}
