import CWebKitGTK
import Vitrine

/// The `[[displays]]` windows: one fullscreen `WebContainer` per placed monitor, kept in
/// step with the monitors GDK lists. It owns the display's `monitor-added` and
/// `monitor-removed` connections (released in deinit) and the windows it opened; the
/// layout and what to change are `DisplayLayout`'s decisions, applied here as they come.
///
/// A window it closes because its monitor went away does not end the program; the
/// program ends when every window is gone for another reason (the user, `ctl quit`).
@MainActor
public final class DisplayWindows {
    private let configuration: Configuration
    /// Adds the program's event sinks to a new window before it starts.
    private let prepare: (WebContainer) -> Void
    private let display: OpaquePointer
    private let signals = SignalConnections()
    private(set) var layout = DisplayLayout(placements: [])
    /// The open windows, by the display they show.
    public private(set) var windows: [Int: WebContainer] = [:]
    /// The app's tray, shortcuts and notifications, shared by every display's window.
    private let services: AppServices
    private var closingByLayout: Set<ObjectIdentifier> = []
    /// Called when the last window closed for a reason other than a monitor going away.
    public var onAllClosed: (() -> Void)?
    /// Called after windows opened or closed (the first display's window may have changed).
    public var onWindowsChanged: (() -> Void)?

    public init(configuration: Configuration, services: AppServices = AppServices(), prepare: @escaping (WebContainer) -> Void) {
        self.services = services
        GTKRuntime.initialize(for: configuration)
        self.configuration = configuration
        self.prepare = prepare
        display = gdk_display_get_default()
        let context = SignalContext(owner: self)
        signals.connect(gptr(display), "monitor-added", context: context, handler: gCallback(onMonitorsChanged))
        signals.connect(gptr(display), "monitor-removed", context: context, handler: gCallback(onMonitorsChanged))
    }

    /// The window of the first display shown, for the remote control's actions.
    public var primaryWindow: WebContainer? { windows.keys.min().flatMap { windows[$0] } }
    /// The open windows in the order of their `[[displays]]` tables.
    public var windowsInOrder: [WebContainer] { windows.sorted { $0.key < $1.key }.map(\.value) }

    /// Opens the windows for the monitors present now.
    public func start() { monitorsChanged() }

    /// Closes every window (the program is ending).
    public func closeAll() {
        onAllClosed = nil
        for window in windows.values { window.close() }
    }

    /// The monitors as GDK lists them now.
    public func currentMonitors() -> (monitors: [Monitor], primary: Int?) {
        let gdkDisplay = display
        let primary = gdk_display_get_primary_monitor(gdkDisplay)
        var monitors: [Monitor] = []
        var primaryIndex: Int?
        for index in 0..<Int(gdk_display_get_n_monitors(gdkDisplay)) {
            guard let monitor = gdk_display_get_monitor(gdkDisplay, gint(index)) else { continue }
            var geometry = GdkRectangle()
            gdk_monitor_get_geometry(monitor, &geometry)
            let connector = gdk_monitor_get_model(monitor).map { String(cString: $0) }
            monitors.append(Monitor(index: index, connector: connector, x: Int(geometry.x), y: Int(geometry.y),
                                    width: Int(geometry.width), height: Int(geometry.height)))
            if monitor == primary { primaryIndex = index }
        }
        return (monitors, primaryIndex)
    }

    /// The index of the monitor GDK says `display`'s window is on (nil: no window, or not
    /// mapped yet).
    public func monitorShowing(display position: Int) -> Int? {
        guard let container = windows[position], let gdkWindow = gtk_widget_get_window(container.window) else { return nil }
        let gdkDisplay = display
        guard let monitor = gdk_display_get_monitor_at_window(gdkDisplay, gdkWindow) else { return nil }
        return (0..<Int(gdk_display_get_n_monitors(gdkDisplay))).first { gdk_display_get_monitor(gdkDisplay, gint($0)) == monitor }
    }

    /// Lays the displays out on the monitors present and applies what changed.
    func monitorsChanged() {
        let (monitors, primary) = currentMonitors()
        apply(DisplayLayout(displays: configuration.displays, monitors: monitors, primary: primary))
    }

    /// Closes the windows `next` no longer places, then opens those it adds.
    public func apply(_ next: DisplayLayout) {
        let changes = layout.changes(to: next)
        layout = next
        for placement in changes.close {
            guard let container = windows.removeValue(forKey: placement.display) else { continue }
            container.record(.native(action: .displayWindowClosed,
                                     detail: DisplayLayout.eventDetail(placement, url: container.configuration.startURL?.absoluteString)))
            closingByLayout.insert(ObjectIdentifier(container))
            container.close()
        }
        // The windows that stay are put back on their monitor: GDK may have renumbered it.
        for placement in next.placements where !changes.open.contains(placement) {
            windows[placement.display]?.fullscreen(onMonitor: placement.monitor.index)
        }
        for placement in changes.open { open(placement) }
        if !changes.isEmpty { onWindowsChanged?() }
    }

    private func open(_ placement: DisplayLayout.Placement) {
        guard configuration.displays.indices.contains(placement.display) else { return }
        let container = WebContainer(configuration: configuration.forDisplay(configuration.displays[placement.display]), services: services)
        prepare(container)
        container.fullscreenMonitor = placement.monitor.index
        let identifier = ObjectIdentifier(container)
        container.onClose = { [weak self, weak container] in
            guard let self else { return }
            if self.closingByLayout.remove(identifier) != nil { return }
            if let container, self.windows[placement.display] === container { self.windows[placement.display] = nil }
            self.onWindowsChanged?()
            if self.windows.isEmpty { self.onAllClosed?() }
        }
        // Once its page has loaded the window is mapped: which monitor GDK says it is on
        // is recorded, the fact a reader (and the test) checks the placement by.
        container.attach(ShownOnMonitor(displays: self, display: placement.display))
        windows[placement.display] = container
        container.record(.native(action: .displayWindowOpened,
                                 detail: DisplayLayout.eventDetail(placement, url: container.configuration.startURL?.absoluteString)))
        container.start()
    }

    isolated deinit {
        signals.disconnectAll()
    }
}

/// `monitor-added` / `monitor-removed` on the display: `void (*)(GdkDisplay*, GdkMonitor*, gpointer)`.
private let onMonitorsChanged: @convention(c) (OpaquePointer?, OpaquePointer?, gpointer?) -> Void = { _, _, data in
    onMainLoop(data) { data in SignalContext.owner(data, as: DisplayWindows.self)?.monitorsChanged() }
}

/// Records which monitor a `[[displays]]` window is on once its first page has loaded.
@MainActor
private final class ShownOnMonitor: WindowFeature {
    private weak var displays: DisplayWindows?
    private weak var container: WebContainer?
    private let display: Int
    private var shown = false

    init(displays: DisplayWindows, display: Int) {
        self.displays = displays
        self.display = display
    }

    func attach(to host: any FeatureHost) {
        container = host.container
    }

    func loadChanged(_ load: PaneLoad) {
        guard load.event == .finished, !shown, let displays, let container, displays.windows[display] === container else { return }
        shown = true
        let monitor = displays.monitorShowing(display: display).map(String.init) ?? "-"
        container.record(.native(action: .displayWindowShown, detail: "\(display) on monitor \(monitor)"))
    }
}
