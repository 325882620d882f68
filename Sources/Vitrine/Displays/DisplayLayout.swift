/// Which `[[displays]]` window goes on which monitor, and what changes when monitors come
/// and go: a pure value, so the adapter only lists monitors and applies the plan.
///
/// Each display goes on the first monitor its selector matches, one window per monitor
/// (a later display naming a monitor already taken is left out). When no configured
/// monitor is present, the first display's page goes on the primary monitor, so a kiosk
/// is never blank; with no monitor at all, no window (the program keeps running and
/// opens them when monitors appear).
public struct DisplayLayout: Sendable, Equatable {
    /// A display's window on a monitor.
    public struct Placement: Sendable, Hashable {
        /// The display's position in `[[displays]]`.
        public var display: Int
        public var monitor: Monitor
        /// Placed on the primary monitor because none of the configured ones is present.
        public var isFallback: Bool

        /// Whether a window placed as `other` is this one: same display, placed the same way,
        /// on the same monitor (index; connector too where both know it).
        public func isSameWindow(as other: Placement) -> Bool {
            guard display == other.display, isFallback == other.isFallback, monitor.index == other.monitor.index else { return false }
            guard let connector = monitor.connector, let otherConnector = other.monitor.connector else { return true }
            return connector == otherConnector
        }

        public init(display: Int, monitor: Monitor, isFallback: Bool = false) {
            self.display = display
            self.monitor = monitor
            self.isFallback = isFallback
        }
    }

    /// What to do to go from one layout to another: windows to close, then to open.
    public struct Changes: Sendable, Equatable {
        public var close: [Placement]
        public var open: [Placement]
        public var isEmpty: Bool { close.isEmpty && open.isEmpty }

        public init(close: [Placement], open: [Placement]) {
            self.close = close
            self.open = open
        }
    }

    public let placements: [Placement]

    public init(placements: [Placement]) { self.placements = placements }

    /// The layout of `displays` on `monitors`; `primary` is the primary monitor's index
    /// (nil or absent: the first listed).
    public init(displays: [DisplaySetting], monitors: [Monitor], primary: Int? = nil) {
        var taken: Set<Int> = []
        var placements: [Placement] = []
        for (position, display) in displays.enumerated() {
            guard let monitor = monitors.first(where: { display.monitor.matches($0) && !taken.contains($0.index) }) else { continue }
            taken.insert(monitor.index)
            placements.append(Placement(display: position, monitor: monitor))
        }
        if placements.isEmpty, !displays.isEmpty,
           let fallback = monitors.first(where: { $0.index == primary }) ?? monitors.first {
            placements.append(Placement(display: 0, monitor: fallback, isFallback: true))
        }
        self.placements = placements
    }

    /// The windows to close (placed now, not in `next`) and to open (in `next`, not placed
    /// now). A window stays while its display stays on the same monitor: same index, and
    /// the same connector where both are known. It stays while its monitor changes size (a
    /// fullscreen window follows it) or gets its name late (Wayland announces a monitor
    /// before describing it); it is opened again where its display moved.
    public func changes(to next: DisplayLayout) -> Changes {
        Changes(close: placements.filter { placed in !next.placements.contains { $0.isSameWindow(as: placed) } },
                open: next.placements.filter { wanted in !placements.contains { $0.isSameWindow(as: wanted) } })
    }

    /// The events-log detail of a window: `"0 HDMI-1 https://…"` (display, monitor, page).
    public static func eventDetail(_ placement: Placement, url: String?) -> String {
        let monitor = placement.monitor.connector.map { "\(placement.monitor.index):\($0)" } ?? String(placement.monitor.index)
        return "\(placement.display) \(monitor)\(placement.isFallback ? " fallback" : "") \(url ?? "-")"
    }
}
