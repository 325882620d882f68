import Foundation
import Testing
import VitrineTestSupport

/// Debian's waybar as the desktop's tray: its `tray` module owns the session's
/// org.kde.StatusNotifierWatcher and is a StatusNotifierHost that reads each registered item
/// and draws its icon at the right end of a black bar along the top of a headless sway
/// (`SwayHeadless`). The bar is read back with `grim` and clicked with `swaymsg seat seat0
/// cursor`, through a virtual pointer (Support/virtual_pointer.py): a headless seat has no
/// pointer of its own, and clients get no pointer events from a seat without one.
final class WaybarTray {
    static let waybar = "/usr/bin/waybar", grim = "/usr/bin/grim"
    /// The bar's height, in pixels (the configuration below).
    static let barHeight = 30
    let compositor: SwayHeadless
    /// The environment of a program on the compositor and the bus.
    let environment: [String: String]
    private let host = Process(), pointer = Process(), monitor = Process()
    /// The watcher's and the menus' signals, one `dbus-monitor` record each, as they come.
    private let signals: String
    /// Where `grim` writes the bar.
    private let capture: String
    private let facts: FactWait

    init(in folder: borrowing ConfigFolder, bus: PrivateSessionBus, sourceLocation: SourceLocation = #_sourceLocation) throws {
        for program in [Self.waybar, Self.grim] {
            try #require(FileManager.default.isExecutableFile(atPath: program), "\(program) is not installed (make deps installs it)",
                         sourceLocation: sourceLocation)
        }
        compositor = try SwayHeadless(in: folder, sourceLocation: sourceLocation)
        environment = bus.environment.merging([
            "XDG_RUNTIME_DIR": compositor.runtime, "WAYLAND_DISPLAY": compositor.socket, "SWAYSOCK": compositor.ipc, "NO_AT_BRIDGE": "1",
        ]) { $1 }
        signals = try folder.write("watcher-signals.log", "")
        capture = folder.path + "/bar.ppm"
        facts = FactWait(watching: [signals])
        monitor.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-monitor")
        monitor.arguments = ["--session", "type='signal',interface='org.kde.StatusNotifierWatcher'", "type='signal',interface='com.canonical.dbusmenu'"]
        monitor.environment = environment
        monitor.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: signals))
        monitor.standardError = FileHandle.nullDevice
        try monitor.run()

        let config = try folder.write("waybar/config", """
            {"layer": "top", "position": "top", "height": \(Self.barHeight), "modules-right": ["tray"], "tray": {"icon-size": 24}}
            """)
        let style = try folder.write("waybar/style.css", "* { border: none; margin: 0; padding: 0; } window#waybar { background: #000000; }")
        host.executableURL = URL(fileURLWithPath: Self.waybar)
        host.arguments = ["-c", config, "-s", style]
        host.environment = environment
        host.standardOutput = FileHandle.nullDevice
        host.standardError = FileHandle.nullDevice
        try host.run()
        let watcher = try runProcess("/usr/bin/gdbus", ["wait", "--session", "--timeout", "30", "org.kde.StatusNotifierWatcher"],
                                     timeout: 40, environment: environment)
        try #require(watcher.status == 0 && host.isRunning, "waybar did not take the StatusNotifierWatcher name: \(watcher)",
                     sourceLocation: sourceLocation)

        let ready = Pipe()
        pointer.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        pointer.arguments = [URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("virtual_pointer.py").path]
        pointer.environment = environment
        pointer.standardOutput = ready
        pointer.standardError = FileHandle.nullDevice
        try pointer.run()
        try #require(firstLine(of: ready).hasPrefix("READY"), "no virtual pointer on the compositor", sourceLocation: sourceLocation)
    }

    /// The pid of the watcher's owner on the bus.
    var watcherOwner: Int32? {
        guard let run = try? runProcess("/usr/bin/gdbus", ["call", "--session", "--dest", "org.freedesktop.DBus", "--object-path",
                                                           "/org/freedesktop/DBus", "--method",
                                                           "org.freedesktop.DBus.GetConnectionUnixProcessID", "org.kde.StatusNotifierWatcher"],
                                        timeout: 20, environment: environment) else { return nil }
        // "(uint32 PID,)"
        return run.stdout.split(separator: " ").last.flatMap { Int32($0.filter(\.isNumber)) }
    }

    var pid: Int32 { host.processIdentifier }

    /// The watcher's RegisteredStatusNotifierItems, as waybar answers it (`NAME/PATH` each).
    func registeredItems() -> String {
        (try? runProcess("/usr/bin/gdbus", ["call", "--session", "--dest", "org.kde.StatusNotifierWatcher", "--object-path",
                                            "/StatusNotifierWatcher", "--method", "org.freedesktop.DBus.Properties.Get",
                                            "org.kde.StatusNotifierWatcher", "RegisteredStatusNotifierItems"],
                          timeout: 20, environment: environment).stdout) ?? ""
    }

    /// Waits until the watcher announced `item` (`StatusNotifierItemRegistered`); whether it did.
    func waitForRegistration(of item: String, timeout: TimeInterval = 30) -> Bool {
        waitForSignal("member=StatusNotifierItemRegistered\n   string \"\(item)", timeout: timeout)
    }

    /// Waits until a signal on the bus (the watcher's, or any menu's) shows `text` in
    /// `dbus-monitor`'s record of it; whether one did.
    func waitForSignal(_ text: String, timeout: TimeInterval = 30) -> Bool {
        facts.wait(timeout: timeout) { ((try? String(contentsOfFile: signals, encoding: .utf8)) ?? "").contains(text) }
    }

    typealias Box = (minX: Int, minY: Int, maxX: Int, maxY: Int)

    /// The top `height` rows of the output, as `grim` captures them (the pointer's arrow included).
    func capture(height: Int) -> PortablePixmap? {
        guard let run = try? runProcess(Self.grim, ["-t", "ppm", "-g", "0,0 1280x\(height)", capture], timeout: 20, environment: environment),
              run.status == 0, let data = FileManager.default.contents(atPath: capture) else { return nil }
        return PortablePixmap(data)
    }

    /// The box of the bar's non-black pixels (the icons waybar drew); nil while it is all background.
    func iconBox() -> Box? {
        guard let image = capture(height: Self.barHeight) else { return nil }
        return image.box { image.pixel($0, $1) != (0, 0, 0) }
    }

    /// The box of the menu waybar popped up under the bar: the rows with a run of white at
    /// least 40 pixels long (a GTK menu's background; the pointer's arrow is narrower).
    func menuBox() -> Box? {
        guard let image = capture(height: 200) else { return nil }
        let rows = Set((0..<image.height).filter { y in (0..<image.width).filter { image.pixel($0, y) == (255, 255, 255) }.count >= 40 })
        return image.box { x, y in rows.contains(y) && image.pixel(x, y) == (255, 255, 255) }
    }

    /// Waits for `box` to find something (`grim` captures: no change to be woken by); what it found.
    func waitFor(_ box: () -> Box?, timeout: TimeInterval = 30) -> Box? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let found = box() { return found }
            usleep(100_000)
        }
        return nil
    }

    /// Right-clicks `icon` until waybar pops its menu up, the menu's box: on a loaded machine a
    /// press can reach waybar before it has read the item's menu, and it then shows none.
    func openMenu(on icon: Box, attempts: Int = 3) throws -> Box? {
        for _ in 0..<attempts {
            try click(x: (icon.minX + icon.maxX) / 2, y: (icon.minY + icon.maxY) / 2, button: "button3")
            if let menu = waitFor(menuBox, timeout: 10) { return menu }
        }
        return nil
    }

    /// A click of the seat's pointer at (`x`, `y`) of the output: `button1` (left) or `button3` (right).
    func click(x: Int, y: Int, button: String = "button1", sourceLocation: SourceLocation = #_sourceLocation) throws {
        for command in [["cursor", "set", "\(x)", "\(y)"], ["cursor", "press", button], ["cursor", "release", button]] {
            let run = try runProcess(SwayHeadless.swaymsg, ["-s", compositor.ipc, "seat", "seat0"] + command, timeout: 20)
            try #require(run.status == 0, "swaymsg seat seat0 \(command): \(run.stdout) \(run.stderr)", sourceLocation: sourceLocation)
        }
    }

    func stop() {
        for process in [pointer, host, monitor] where process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        compositor.stop()
    }
}

/// A binary PPM (`P6`, 8-bit), as `grim -t ppm` writes it.
struct PortablePixmap {
    let width: Int, height: Int
    private let pixels: [UInt8]

    init?(_ data: Data) {
        let bytes = [UInt8](data)
        // The header: "P6", width, height, maximum value, each after white space; one byte of white space before the pixels.
        var fields: [String] = [], index = 0
        while fields.count < 4, index < bytes.count {
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x09 || bytes[index] == 0x0D { index += 1 }
            let start = index
            while index < bytes.count, !(bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x09 || bytes[index] == 0x0D) { index += 1 }
            fields.append(String(decoding: bytes[start..<index], as: UTF8.self))
        }
        guard fields.count == 4, fields[0] == "P6", let width = Int(fields[1]), let height = Int(fields[2]), fields[3] == "255",
              bytes.count - (index + 1) >= width * height * 3 else { return nil }
        self.width = width
        self.height = height
        pixels = Array(bytes[(index + 1)...])
    }

    /// The box of the pixels where `matches` holds; nil if none does.
    func box(where matches: (Int, Int) -> Bool) -> WaybarTray.Box? {
        var box: WaybarTray.Box?
        for y in 0..<height {
            for x in 0..<width where matches(x, y) {
                box = box.map { (min($0.minX, x), min($0.minY, y), max($0.maxX, x), max($0.maxY, y)) } ?? (x, y, x, y)
            }
        }
        return box
    }

    func pixel(_ x: Int, _ y: Int) -> (UInt8, UInt8, UInt8) {
        let offset = (y * width + x) * 3
        return (pixels[offset], pixels[offset + 1], pixels[offset + 2])
    }
}
