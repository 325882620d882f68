#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import Vitrine
import VitrineConfigFile
import VitrineGTK

/// Runs one container under GTK's main loop and turns its life into an exit status:
/// 0 when the window closes (or after the first load with `--exit-after-load`),
/// 1 when the first load of a one-shot run (`--screenshot`, `--exit-after-load`) fails,
/// its start page is blocked or the screenshot cannot be written, 2 on load timeout.
/// Any other run never gives up on its page: a failed load shows the error page and is
/// tried again (`LoadRetrier`) until it loads.
///
/// Unless told to run alone (or making a one-shot screenshot), the program is the single
/// instance on the session bus: a second `vitrine URL` hands its URL over and exits, and
/// `vitrine ctl` / `gapplication action` reach the running window.
@MainActor
final class Launcher: EventSink {
    /// The configuration in force (a pushed one replaces it).
    var configuration: Configuration
    /// The file it was read from, and the command line that refines it: a pushed
    /// configuration is read the same way.
    let configPath: String?
    let overrides: ConfigOverrides
    let eventLog: JSONLinesEventLog?
    private let screenshot: String?
    private let exitAfterLoad: Bool
    private let loadTimeout: Double
    let singleInstance: Bool
    /// A run that ends after its first load (`--screenshot`, `--exit-after-load`).
    private let oneShot: Bool
    private(set) var status: Int32 = 0
    private var firstLoadSettled = false
    private(set) var remote: RemoteControl?
    /// The one dispatch of remote commands, from the bus and from MQTT.
    let dispatch = RemoteDispatch()
    var mqtt: MQTTRemote?
    private(set) var container: WebContainer?
    /// A pushed configuration on probation (see Launcher+ConfigPush.swift).
    var trial: ConfigPushTrial?
    /// The Prometheus metrics file (`[metrics] textfile`), while this program is the instance.
    var metricsFile: MetricsTextfile?

    init(configuration: Configuration, configPath: String?, overrides: ConfigOverrides, eventLog: JSONLinesEventLog?,
         screenshot: String?, exitAfterLoad: Bool, loadTimeout: Double, singleInstance: Bool) {
        self.configuration = configuration
        self.configPath = configPath
        self.overrides = overrides
        self.eventLog = eventLog
        self.screenshot = screenshot
        self.exitAfterLoad = exitAfterLoad
        self.loadTimeout = loadTimeout
        // A one-shot run (screenshot, exit after load) is never handed to another window.
        oneShot = screenshot != nil || exitAfterLoad
        self.singleInstance = singleInstance && !oneShot
        dispatch.quit = { GTKRuntime.quit() }
    }

    func run() -> Int32 {
        // The log is batched per main-loop turn: whatever waits is written on every way out
        // (a handed-over start records its navigation decision without any loop turn).
        defer { eventLog?.flush() }
        let sandbox = SandboxCheck(configuration)
        GTKRuntime.initialize()
        // A clear error and a non-zero exit rather than WebKit aborting (or a blank window) later.
        if let problem = sandbox.problem() {
            printToStandardError("vitrine: error: \(problem)")
            return 1
        }
        if !configuration.displays.isEmpty && !oneShot { return runDisplays() }
        let container = makeContainer(configuration)
        self.container = container
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
        dispatch.applyConfiguration = { [weak self] text, reply in self?.push(text, reply: reply) }
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
        container.loadObservers.append { [weak self, weak container] event, _ in
            guard let self, let container, !self.firstLoadSettled else { return }
            switch event {
            case "finished": self.firstLoadFinished(container)
            case "failed" where self.oneShot: self.finish(status: 1, message: "the first load failed")
            default: break
            }
        }
        if oneShot {
            Task { @MainActor [weak self] in
                try? await Task.sleep(for: .seconds(self?.loadTimeout ?? 60))
                guard let self, !self.firstLoadSettled else { return }
                self.finish(status: 2, message: "the first load did not finish within \(self.loadTimeout) s")
            }
        }
        container.start()
        metricsFile?.start()
        GTKRuntime.run()
        // However the loop ended (SIGTERM, a one-shot run's end), the container tears down:
        // its owners hand back what they hold (the screen saver's inhibition, a dialog).
        if let container = self.container { close(container) }
        mqtt = nil
        metricsFile?.finish() // vitrine_up 0: ended, not crashed
        return status
    }

    /// Claims the instance's name on the session bus (its window then answers `vitrine ctl`);
    /// false when the start was handed over to the running instance instead.
    func becomeInstance() -> Bool {
        switch RemoteControl.register(handingOver: configuration.startURL) {
        case .handedOver:
            printToStandardError("vitrine: handed over to the running instance")
            return false
        case .standalone(let reason):
            printToStandardError("vitrine: running without remote control: \(reason)")
        case .primary(let control):
            remote = control
        }
        return true
    }

    /// A container for `configuration`, with every sink the program keeps across pushes.
    func makeContainer(_ configuration: Configuration) -> WebContainer {
        let container = WebContainer(configuration: configuration)
        if let eventLog { container.addEventSink(eventLog) }
        container.addEventSink(self)
        container.addEventSink(dispatch)
        if let metricsFile { container.addEventSink(metricsFile.metrics) }
        if mqtt != nil { connectMQTT(to: container) }
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
        let new = makeContainer(configuration)
        self.configuration = configuration
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
            printToStandardError("vitrine: running without MQTT: \(error)")
            return
        }
        self.mqtt = mqtt
    }

    /// The broker hears every event (through `sink` when given) and every title the page takes.
    func connectMQTT(to container: WebContainer, reporting sink: (any EventSink)? = nil) {
        guard let mqtt else { return }
        container.addEventSink(sink ?? mqtt)
        container.titleObservers.append { [weak mqtt] _ in mqtt?.publishState() }
    }

    /// Watches for the start page being refused by the chain: a cancelled start has no
    /// load event, and a one-shot run would otherwise wait for its timeout.
    func record(_ event: ContainerEvent) {
        observeTrial(event)
        guard !firstLoadSettled, oneShot,
              case let .navigation(url, handler, .cancel, _, _, "request") = event,
              url == configuration.startURL?.absoluteString
        else { return }
        finish(status: 1, message: "the start page \(url) was blocked by the navigation chain (\(handler))")
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
                printToStandardError("vitrine: screenshot written to \(screenshot)")
                if exitAfterLoad { finish(status: 0, message: nil) }
            } catch {
                finish(status: 1, message: "cannot write the screenshot: \(error)")
            }
        }
    }

    private func finish(status: Int32, message: String?) {
        firstLoadSettled = true
        self.status = status
        if let message { printToStandardError("vitrine: error: \(message)") }
        GTKRuntime.quit()
    }
}

/// Writes a line for the person running the program.
func printToStandardError(_ line: String) {
    // write(2) rather than fputs(stderr): the C global is not concurrency-safe in Swift 6.
    let text = line + "\n"
    _ = text.withCString { write(STDERR_FILENO, $0, strlen($0)) }
}
