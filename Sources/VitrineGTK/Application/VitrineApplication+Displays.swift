#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

extension VitrineApplication {
    /// `[[displays]]`: a window per placed monitor, kept in step with the monitors until the
    /// loop ends; a monitor going away closes its window, never the program. Remote
    /// commands (bus and MQTT) act on every window for `reload`, `home`, `display` and
    /// `next`, on the first display's open window for `navigate` and `screenshot`; the
    /// MQTT state's address is that window's. Configuration pushes are refused: a pushed
    /// file would have to be tried on every monitor's window at once.
    func runDisplays() -> Int32 {
        if singleInstance, !becomeInstance() { return 0 }
        metricsFile = configuration.metricsTextfile.map { MetricsTextfile(path: $0.path, interval: configuration.metricsInterval) }
        if let settings = configuration.mqtt { startMQTT(settings) }
        let displayWindows = DisplayWindows(configuration: configuration, services: services) { [weak self] container in
            guard let self else { return }
            for observe in self.containerObservers { observe(container) }
            if let eventLog = self.eventLog { container.addEventSink(eventLog) }
            if let proofOfPlay = self.proofOfPlay { container.addEventSink(proofOfPlay) }
            if let metricsFile = self.metricsFile { container.addEventSink(metricsFile.metrics) }
            if let serviceNotifier = self.serviceNotifier { container.addEventSink(serviceNotifier) }
            if let mqtt = self.mqtt {
                self.connectMQTT(to: container, reporting: DisplayWindowEvents(container, mqtt: mqtt) { [weak self] in self?.dispatch.container })
            }
            self.remote?.adopt(container)
            self.machineFacts?.record(on: container)
        }
        displayWindows.onWindowsChanged = { [weak self, weak displayWindows] in
            guard let self else { return }
            let first = displayWindows?.primaryWindow
            guard first !== self.dispatch.container else { return }
            self.dispatch.container = first
            self.mqtt?.firstWindowChanged(url: first?.currentURL)
        }
        dispatch.everyWindow = { [weak displayWindows] in displayWindows?.windowsInOrder ?? [] }
        dispatch.applyConfiguration = { _, reply in
            reply(.failure("configuration pushes are not taken by a [[displays]] run: change the file on the kiosk and restart it"))
        }
        remote?.dispatch = dispatch
        displayWindows.onAllClosed = { GTKRuntime.quit() }
        displayWindows.start()
        startSidecars()
        startReports { [weak self] in self?.dispatch.container?.record($0) }
        metricsFile?.start()
        serviceNotifier?.startWatchdog()
        runLoop()
        services.sidecars?.stop()
        serviceNotifier?.stop()
        displayWindows.closeAll()
        mqtt = nil
        metricsFile?.finish()
        return status
    }
}

/// One display window's events for the broker: on `events` all of them; in the state, the
/// address only while the window is the first display's (`first`, the dispatch's window,
/// asked at each event).
/// Holds the window and the session weakly: once either is gone, events go nowhere.
@MainActor
private final class DisplayWindowEvents: EventSink {
    private weak var container: WebContainer?
    private weak var mqtt: MQTTRemote?
    private let first: @MainActor () -> WebContainer?

    init(_ container: WebContainer, mqtt: MQTTRemote, first: @escaping @MainActor () -> WebContainer?) {
        self.container = container
        self.mqtt = mqtt
        self.first = first
    }

    func record(_ event: ContainerEvent) {
        guard let container, let mqtt else { return }
        mqtt.record(event, ownsURL: first() === container)
    }
}
